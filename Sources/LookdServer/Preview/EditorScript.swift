import Foundation

/// The live editor's one script (``EditorPage``), inline in the page and allowed by its hash alone.
///
/// On every change of a control it posts `{"dashboard": layer}` to `POST /v1/looks/resolve` (relative to the
/// page, so it works behind a path prefix; the previous request is aborted), then sets each phone's CSS custom
/// properties from the answer's palette for that phone's `data-appearance`, the corner radius and font stack, shows
/// the contact header of the resolved style, and lists the answer's `adjustments` (with why each was made),
/// `diagnostics` and resolved fields. It writes only through `textContent`, `hidden`, `dataset` and
/// `style.setProperty` — never `innerHTML` (the page's CSP requires Trusted Types, so the browser would refuse it).
/// After each update is drawn it sets `data-revision` (a count) and `data-latency-ms` (from the control's `input`
/// event to the next animation frame after the update) on the editor element, and says the time in the status line.
enum EditorScript {
    /// The script's text, exactly as it appears between `<script>` and `</script>`.
    static let source = #"""
'use strict';
(() => {
  const root = document.getElementById('editor');
  const $ = (role) => root.querySelector('[data-role="' + role + '"]');
  const base = JSON.parse(root.dataset.layer);
  const fonts = JSON.parse(root.dataset.fonts);
  const endpoint = new URL(root.dataset.resolve, document.baseURI).href;
  const hex = /^#[0-9A-Fa-f]{6}$/;
  const controls = {
    accent: $('accent'), accentHex: $('accent-hex'), darkOn: $('accent-dark-on'), dark: $('accent-dark'),
    darkHex: $('accent-dark-hex'), corners: $('corners'), font: $('font'), headerStyle: $('header-style'),
  };
  const palettes = {
    'light': (p) => p.light, 'dark': (p) => p.dark,
    'increased-light': (p) => p.increasedContrast.light, 'increased-dark': (p) => p.increasedContrast.dark,
  };
  const variables = [['--bg', 'background'], ['--fill', 'bubbleFill'], ['--on-fill', 'bubbleText'], ['--tint', 'tint'],
    ['--text', 'text'], ['--muted', 'secondaryText'], ['--team-fill', 'teamBubbleFill'], ['--team-text', 'teamBubbleText']];
  const appearanceNames = {
    'light': 'Light', 'dark': 'Dark',
    'increasedContrast.light': 'Light, increased contrast', 'increasedContrast.dark': 'Dark, increased contrast',
  };
  let sequence = 0;
  let revision = 0;
  let inFlight = null;

  function layer() {
    const out = Object.assign({}, base);
    const light = controls.accentHex.value.trim();
    if (controls.darkOn.checked) {
      out.accent = { light: light, dark: controls.darkHex.value.trim() };
    } else if (light !== '') {
      out.accent = light;
    } else {
      delete out.accent;
    }
    for (const [field, control] of [['corners', controls.corners], ['font', controls.font], ['headerStyle', controls.headerStyle]]) {
      if (control.value === '') delete out[field]; else out[field] = control.value;
    }
    return out;
  }

  function element(tag, text, role) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (role) node.dataset.role = role;
    return node;
  }

  function swatch(color) {
    const node = element('span', undefined, 'swatch');
    node.className = 'swatch';
    if (hex.test(color)) node.style.setProperty('background-color', color);
    return node;
  }

  function why(a) {
    const min = a.minimumRatio + ':1';
    if (a.role === 'bubbleFill') {
      return 'White text reaches 3:1 on ' + a.original + ', so the person\u2019s bubbles carry white text; at ' +
        a.ratioBefore + ':1 it is under the ' + min + ' this palette promises, so lookd deepened the bubble, keeping its hue, just until white reaches ' +
        a.ratioAfter + ':1.';
    }
    if (a.role === 'tint') {
      return 'The accent is drawn as text and icons on the background ' + a.against + ' (links, topic chips, the send button), where it reaches only ' +
        a.ratioBefore + ':1, under the ' + min + ' this palette promises; lookd made it ' + a.direction + ', keeping its hue, just until it reaches ' +
        a.ratioAfter + ':1.';
    }
    return 'lookd changed ' + a.original + ' to ' + a.adjusted + ' to reach ' + min + ' against ' + a.against + '.';
  }

  function showAdjustments(adjustments) {
    const list = $('adjustments');
    list.replaceChildren();
    if (adjustments.length === 0) {
      list.append(element('li', 'None: the accent is used as given in every palette.', 'no-adjustment'));
      return;
    }
    for (const a of adjustments) {
      const item = element('li', undefined, 'adjustment');
      item.dataset.appearance = a.appearance;
      item.dataset.adjusted = a.role;
      const title = element('p', undefined, 'adjustment-title');
      title.append(element('strong', (appearanceNames[a.appearance] || a.appearance) + ' \u00b7 ' + a.role + ': '),
        swatch(a.original), element('code', a.original, 'original'), document.createTextNode(' \u2192 '),
        swatch(a.adjusted), element('code', a.adjusted, 'adjusted'));
      item.append(title, element('p', why(a), 'why'),
        element('p', 'WCAG ' + a.ratioBefore + ':1 \u2192 ' + a.ratioAfter + ':1 against ' + a.against + ' (minimum ' + a.minimumRatio +
          ':1); \u0394E-OK ' + a.deltaEOK + ', hue moved ' + a.hueShift + '\u00b0.', 'figures'));
      list.append(item);
    }
  }

  function showDiagnostics(diagnostics) {
    const list = $('diagnostics');
    list.replaceChildren();
    if (diagnostics.length === 0) {
      list.append(element('li', 'None.', 'no-diagnostic'));
      return;
    }
    for (const d of diagnostics) {
      const item = element('li', d.severity + ' ' + d.code + (d.field ? ' (' + d.layer + '.' + d.field + ')' : '') + ': ' + d.message, 'diagnostic');
      item.dataset.code = d.code;
      list.append(item);
    }
  }

  function showFields(look) {
    const list = $('fields');
    list.replaceChildren();
    const accent = look.accent.value;
    const rows = [
      ['accent', accent.light === accent.dark ? accent.light : accent.light + ' light, ' + accent.dark + ' dark', look.accent.source],
      ['corners', look.corners.value + ' (' + look.corners.radius + ' pt)', look.corners.source],
      ['font', look.font.value, look.font.source],
      ['headerStyle', look.headerStyle.value, look.headerStyle.source],
    ];
    for (const [name, value, source] of rows) {
      list.append(element('dt', name), element('dd', value + ', from the ' + source + ' layer', 'field-' + name));
    }
  }

  function apply(look) {
    const radius = Number(look.corners.radius);
    for (const phone of root.querySelectorAll('[data-role="phone"]')) {
      const pick = palettes[phone.dataset.appearance];
      const colors = pick ? pick(look.palette) : null;
      if (colors) {
        for (const [name, key] of variables) {
          if (hex.test(colors[key])) phone.style.setProperty(name, colors[key]);
        }
      }
      if (Number.isFinite(radius)) phone.style.setProperty('--radius', radius + 'px');
      if (Object.prototype.hasOwnProperty.call(fonts, look.font.value)) phone.style.setProperty('--font', fonts[look.font.value]);
      for (const header of phone.querySelectorAll('[data-role="header"]')) {
        header.hidden = header.dataset.style !== look.headerStyle.value;
      }
    }
    showAdjustments(look.adjustments);
    showDiagnostics(look.diagnostics);
    showFields(look);
  }

  function status(text, state) {
    const line = $('status');
    line.textContent = text;
    line.dataset.state = state;
  }

  async function update(started) {
    const mine = ++sequence;
    if (inFlight) inFlight.abort();
    const controller = new AbortController();
    inFlight = controller;
    const dashboard = layer();
    $('layer').textContent = JSON.stringify(dashboard, null, 2);
    let look;
    try {
      const response = await fetch(endpoint, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ dashboard: dashboard }),
        signal: controller.signal, cache: 'no-store', credentials: 'omit',
      });
      const answer = await response.json();
      if (!response.ok) {
        const error = answer && answer.error;
        status(error ? error.code + ': ' + error.message : 'HTTP ' + response.status, 'error');
        return;
      }
      look = answer;
    } catch (error) {
      if (error.name !== 'AbortError') status('lookd did not answer: ' + error.message, 'error');
      return;
    }
    if (mine !== sequence) return;
    apply(look);
    requestAnimationFrame(() => {
      if (mine !== sequence) return;
      const ms = performance.now() - started;
      revision += 1;
      root.dataset.latencyMs = ms.toFixed(1);
      root.dataset.revision = String(revision);
      status('Updated in ' + ms.toFixed(0) + ' ms', 'ok');
    });
  }

  function changed(event) {
    const started = performance.now();
    const target = event.target;
    if (target === controls.accent) controls.accentHex.value = controls.accent.value.toUpperCase();
    if (target === controls.dark) controls.darkHex.value = controls.dark.value.toUpperCase();
    if (target === controls.accentHex && hex.test(controls.accentHex.value.trim())) controls.accent.value = controls.accentHex.value.trim().toLowerCase();
    if (target === controls.darkHex && hex.test(controls.darkHex.value.trim())) controls.dark.value = controls.darkHex.value.trim().toLowerCase();
    if (target === controls.darkOn && controls.darkOn.checked && controls.darkHex.value.trim() === '') {
      controls.darkHex.value = controls.dark.value.toUpperCase();
    }
    controls.dark.disabled = controls.darkHex.disabled = !controls.darkOn.checked;
    update(started);
  }

  for (const control of Object.values(controls)) {
    control.addEventListener(control.tagName === 'SELECT' || control.type === 'checkbox' ? 'change' : 'input', changed);
  }
  controls.dark.disabled = controls.darkHex.disabled = !controls.darkOn.checked;
  update(performance.now());
})();
"""#

    /// The page's Content-Security-Policy: nothing may load; only this script (by its SHA-256) and the inline style
    /// run; the script may only call lookd itself (`connect-src 'self'`); DOM sinks that parse HTML from strings
    /// are refused (Trusted Types required, no policy defined).
    static let contentSecurityPolicy: String = {
        let digest = Data(Crypto.sha256(Array(source.utf8))).base64EncodedString()
        return "default-src 'none'; script-src 'sha256-\(digest)'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; "
            + "base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types 'none'"
    }()
}
