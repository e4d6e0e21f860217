// libxml2's SAX2 push parser set up as swift-corelibs-foundation's XMLParser sets it up (options RECOVER | NOENT,
// the same callbacks doing the same things), so lookd reads every document as it did through FoundationXML; the
// events are written to one byte buffer instead of becoming Foundation strings and dictionaries one callback at a
// time (that was 78 of the 122 million instructions of reading one `lint-xliff` bench file, callgrind, 2 Dec 2026).
#include "lookd_xml.h"

#include <libxml/SAX2.h>
#include <libxml/entities.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct lookd_xml_state {
    lookd_xml_result *result;
    /// NULL until xmlCreatePushParserCtxt returns (XMLParser's `_parserContext`).
    xmlParserCtxtPtr ctxt;
    int depth;
    int max_depth;
    /// XMLParser's "recursive state": an entity getEntity found in content; the next characters are skipped.
    int in_entity;
    /// Where the length of the last record is when that record is text, else SIZE_MAX.
    size_t text_length_at;
    int out_of_memory;
} lookd_xml_state;

static int reserve(lookd_xml_state *state, size_t more) {
    lookd_xml_result *result = state->result;
    if (state->out_of_memory) return 0;
    if (more > SIZE_MAX / 2 - result->length) goto fail;
    if (result->length + more <= result->capacity) return 1;
    size_t capacity = result->capacity ? result->capacity : 4096;
    while (capacity < result->length + more) capacity *= 2;
    unsigned char *grown = realloc(result->events, capacity);
    if (grown == NULL) goto fail;
    result->events = grown;
    result->capacity = capacity;
    return 1;
fail:
    state->out_of_memory = 1;
    if (state->ctxt != NULL) xmlStopParser(state->ctxt);
    return 0;
}

static void put_u32(lookd_xml_state *state, uint32_t value) {
    memcpy(state->result->events + state->result->length, &value, 4);
    state->result->length += 4;
}

static void put_bytes(lookd_xml_state *state, const void *bytes, size_t length) {
    if (length) memcpy(state->result->events + state->result->length, bytes, length);
    state->result->length += length;
}

static void put_kind(lookd_xml_state *state, char kind) {
    state->result->events[state->result->length++] = (unsigned char)kind;
    state->text_length_at = SIZE_MAX;
}

static void add_text(lookd_xml_state *state, const xmlChar *bytes, size_t length) {
    if (length > UINT32_MAX) { reserve(state, SIZE_MAX); return; }
    if (state->text_length_at != SIZE_MAX) {
        uint32_t previous;
        memcpy(&previous, state->result->events + state->text_length_at, 4);
        if ((uint64_t)previous + length > UINT32_MAX || !reserve(state, length)) { reserve(state, SIZE_MAX); return; }
        uint32_t joined = previous + (uint32_t)length;
        memcpy(state->result->events + state->text_length_at, &joined, 4);
        put_bytes(state, bytes, length);
        return;
    }
    if (!reserve(state, 5 + length)) return;
    put_kind(state, 'T');
    state->result->text_count++;
    state->text_length_at = state->result->length;
    put_u32(state, (uint32_t)length);
    put_bytes(state, bytes, length);
}

// The callbacks, each doing what XMLParser's does for a delegate that implements only the element, text, CDATA,
// comment and error methods (XMLTree's builder did).

static void on_start_element(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                             int namespace_count, const xmlChar **namespaces, int attribute_count, int defaulted,
                             const xmlChar **attributes) {
    (void)uri;
    (void)defaulted;
    lookd_xml_state *state = context;
    lookd_xml_result *result = state->result;
    if (result->too_deep || state->out_of_memory) return;
    if (state->depth >= state->max_depth) {
        result->too_deep = 1;
        result->too_deep_line = xmlSAX2GetLineNumber(state->ctxt);
        result->too_deep_column = xmlSAX2GetColumnNumber(state->ctxt);
        xmlStopParser(state->ctxt);
        return;
    }
    size_t local_length = strlen((const char *)localname);
    size_t prefix_length = prefix != NULL ? strlen((const char *)prefix) : 0;
    size_t name_length = local_length + (prefix != NULL ? prefix_length + 1 : 0);
    // Upper bound of the record: kind, line, column, name, count, then each namespace and attribute.
    size_t size = 1 + 4 + 4 + 4 + name_length + 4;
    for (int index = 0; index < namespace_count; index++) {
        const xmlChar *name = namespaces[2 * index], *value = namespaces[2 * index + 1];
        size += 4 + 6 + (name != NULL ? strlen((const char *)name) : 0) + 4 + (value != NULL ? strlen((const char *)value) : 0);
    }
    for (int index = 0; index < attribute_count; index++) {
        const xmlChar **attribute = attributes + 5 * index;
        if (attribute[0] == NULL) continue;
        size += 4 + strlen((const char *)attribute[0]) + 1 + (attribute[1] != NULL ? strlen((const char *)attribute[1]) : 0);
        size += 4 + (attribute[3] != NULL && attribute[4] != NULL && attribute[4] > attribute[3] ? (size_t)(attribute[4] - attribute[3]) : 0);
    }
    if (size > UINT32_MAX) { reserve(state, SIZE_MAX); return; }
    if (!reserve(state, size)) return;
    state->depth++;
    put_kind(state, 'S');
    result->element_count++;
    put_u32(state, (uint32_t)xmlSAX2GetLineNumber(state->ctxt));
    put_u32(state, (uint32_t)xmlSAX2GetColumnNumber(state->ctxt));
    put_u32(state, (uint32_t)name_length);
    if (prefix != NULL) {
        put_bytes(state, prefix, prefix_length);
        put_bytes(state, ":", 1);
    }
    put_bytes(state, localname, local_length);
    size_t count_at = result->length;
    put_u32(state, 0);
    uint32_t count = 0;
    // Namespace declarations first, as attributes (XMLParser without namespace processing).
    for (int index = 0; index < namespace_count; index++) {
        const xmlChar *name = namespaces[2 * index], *value = namespaces[2 * index + 1];
        size_t length = name != NULL ? strlen((const char *)name) : 0;
        put_u32(state, (uint32_t)(name != NULL ? 6 + length : 5));
        put_bytes(state, name != NULL ? "xmlns:" : "xmlns", name != NULL ? 6 : 5);
        put_bytes(state, name, length);
        size_t value_length = value != NULL ? strlen((const char *)value) : 0;
        put_u32(state, (uint32_t)value_length);
        put_bytes(state, value, value_length);
        count++;
    }
    for (int index = 0; index < attribute_count; index++) {
        const xmlChar **attribute = attributes + 5 * index;
        if (attribute[0] == NULL || attribute[3] == NULL || attribute[4] == NULL) continue;
        size_t local = strlen((const char *)attribute[0]);
        size_t prefix_part = attribute[1] != NULL ? strlen((const char *)attribute[1]) : 0;
        put_u32(state, (uint32_t)(local + (prefix_part ? prefix_part + 1 : 0)));
        if (prefix_part) {
            put_bytes(state, attribute[1], prefix_part);
            put_bytes(state, ":", 1);
        }
        put_bytes(state, attribute[0], local);
        size_t value_length = attribute[4] > attribute[3] ? (size_t)(attribute[4] - attribute[3]) : 0;
        put_u32(state, (uint32_t)value_length);
        put_bytes(state, attribute[3], value_length);
        count++;
    }
    memcpy(result->events + count_at, &count, 4);
}

static void on_end_element(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname;
    (void)prefix;
    (void)uri;
    lookd_xml_state *state = context;
    if (state->result->too_deep || state->depth == 0 || !reserve(state, 1)) return;
    state->depth--;
    put_kind(state, 'E');
}

static void on_characters(void *context, const xmlChar *bytes, int length) {
    lookd_xml_state *state = context;
    if (state->in_entity) {
        state->in_entity = 0;
        return;
    }
    if (state->result->too_deep || length <= 0) return;
    add_text(state, bytes, (size_t)length);
}

static void on_cdata(void *context, const xmlChar *bytes, int length) {
    lookd_xml_state *state = context;
    if (state->result->too_deep || length <= 0) return;
    add_text(state, bytes, (size_t)length);
}

static void on_comment(void *context, const xmlChar *text) {
    lookd_xml_state *state = context;
    if (state->result->too_deep) return;
    size_t length = strlen((const char *)text);
    if (length > UINT32_MAX) { reserve(state, SIZE_MAX); return; }
    if (!reserve(state, 5 + length)) return;
    put_kind(state, 'C');
    put_u32(state, (uint32_t)length);
    put_bytes(state, text, length);
}

static xmlEntityPtr on_get_entity(void *context, const xmlChar *name) {
    lookd_xml_state *state = context;
    xmlEntityPtr entity = xmlGetPredefinedEntity(name);
    if (entity == NULL && state->ctxt != NULL) {
        entity = xmlSAX2GetEntity(state->ctxt, name);
        if (entity != NULL && state->ctxt->instate == XML_PARSER_CONTENT) state->in_entity = 1;
    }
    return entity;
}

static void on_internal_subset(void *context, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    lookd_xml_state *state = context;
    if (state->ctxt != NULL) xmlSAX2InternalSubset(state->ctxt, name, external_id, system_id);
}

static void on_external_subset(void *context, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    lookd_xml_state *state = context;
    if (state->ctxt != NULL) xmlSAX2ExternalSubset(state->ctxt, name, external_id, system_id);
}

static int on_is_standalone(void *context) {
    lookd_xml_state *state = context;
    return state->ctxt != NULL && state->ctxt->myDoc != NULL ? state->ctxt->myDoc->standalone : 0;
}

static int on_has_internal_subset(void *context) {
    lookd_xml_state *state = context;
    return state->ctxt != NULL && state->ctxt->myDoc != NULL && state->ctxt->myDoc->intSubset != NULL;
}

static int on_has_external_subset(void *context) {
    lookd_xml_state *state = context;
    return state->ctxt != NULL && state->ctxt->myDoc != NULL && state->ctxt->myDoc->extSubset != NULL;
}

static void on_unparsed_entity(void *context, const xmlChar *name, const xmlChar *public_id, const xmlChar *system_id,
                               const xmlChar *notation) {
    lookd_xml_state *state = context;
    if (state->ctxt != NULL) xmlSAX2UnparsedEntityDecl(state->ctxt, name, public_id, system_id, notation);
}

static void on_attribute_declaration(void *context, const xmlChar *element, const xmlChar *name, int type, int def,
                                     const xmlChar *default_value, xmlEnumerationPtr tree) {
    (void)context;
    (void)element;
    (void)name;
    (void)type;
    (void)def;
    (void)default_value;
    xmlFreeEnumeration(tree);
}

static void on_notation(void *context, const xmlChar *name, const xmlChar *public_id, const xmlChar *system_id) {
    (void)context;
    (void)name;
    (void)public_id;
    (void)system_id;
}

static void on_element_declaration(void *context, const xmlChar *name, int type, xmlElementContentPtr content) {
    (void)context;
    (void)name;
    (void)type;
    (void)content;
}

static void on_document(void *context) { (void)context; }

static void on_instruction(void *context, const xmlChar *target, const xmlChar *data) {
    (void)context;
    (void)target;
    (void)data;
}

static void on_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Every error and warning libxml2 raises on this thread while a parse runs (XMLParser's structured error function).
static void on_structured_error(void *context, xmlErrorPtr error) {
    lookd_xml_state *state = context;
    lookd_xml_result *result = state->result;
    if (result->error_count == 0) {
        result->first_error_line = state->ctxt != NULL ? xmlSAX2GetLineNumber(state->ctxt) : 0;
        result->first_error_column = state->ctxt != NULL ? xmlSAX2GetColumnNumber(state->ctxt) : 0;
    }
    if (result->error_count < INT_MAX) result->error_count++;
    result->last_error_code = error != NULL ? error->code : 0;
}

static pthread_once_t initialized = PTHREAD_ONCE_INIT;

/// Refuses every external entity and DTD, as XMLParser's loader does under its default policy (`.never`).
static xmlParserInputPtr refuse_external(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
    (void)url;
    (void)id;
    (void)ctxt;
    return NULL;
}

static void initialize(void) {
    xmlInitParser();
    // libxml2 has one loader per process (2.9 has no per-parser one). lookd's only other libxml2 user would be
    // FoundationXML, whose own loader refuses too under the policy lookd used.
    xmlSetExternalEntityLoader(refuse_external);
}

void lookd_xml_parse(const unsigned char *bytes, size_t length, int max_depth, lookd_xml_result *result) {
    memset(result, 0, sizeof *result);
    if (length < 4) {
        // XMLParser waits for 4 bytes before it makes a parser: a shorter document is never parsed.
        result->too_short = 1;
        return;
    }
    pthread_once(&initialized, initialize);
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.internalSubset = on_internal_subset;
    handler.isStandalone = on_is_standalone;
    handler.hasInternalSubset = on_has_internal_subset;
    handler.hasExternalSubset = on_has_external_subset;
    handler.getEntity = on_get_entity;
    handler.notationDecl = on_notation;
    handler.attributeDecl = on_attribute_declaration;
    handler.elementDecl = on_element_declaration;
    handler.unparsedEntityDecl = on_unparsed_entity;
    handler.startDocument = on_document;
    handler.endDocument = on_document;
    handler.startElementNs = on_start_element;
    handler.endElementNs = on_end_element;
    handler.characters = on_characters;
    handler.processingInstruction = on_instruction;
    handler.error = on_error;
    handler.cdataBlock = on_cdata;
    handler.comment = on_comment;
    handler.externalSubset = on_external_subset;
    handler.initialized = XML_SAX2_MAGIC;

    lookd_xml_state state = { .result = result, .ctxt = NULL, .depth = 0, .max_depth = max_depth, .in_entity = 0,
                              .text_length_at = SIZE_MAX, .out_of_memory = 0 };
    xmlSetStructuredErrorFunc(&state, on_structured_error);
    xmlParserCtxtPtr ctxt = length - 4 <= INT_MAX ? xmlCreatePushParserCtxt(&handler, &state, (const char *)bytes, 4, NULL) : NULL;
    if (ctxt == NULL) {
        xmlSetStructuredErrorFunc(NULL, NULL);
        result->status = XML_ERR_NO_MEMORY;
        return;
    }
    state.ctxt = ctxt;
    // XMLParser's options (shouldResolveExternalEntities false), and no network ever.
    xmlCtxtUseOptions(ctxt, XML_PARSE_RECOVER | XML_PARSE_NOENT | XML_PARSE_NONET);
    int status = xmlParseChunk(ctxt, (const char *)bytes + 4, (int)(length - 4), 1);
    result->status = status == XML_ERR_DOCUMENT_END ? XML_ERR_OK : status;
    if (state.out_of_memory) result->status = XML_ERR_NO_MEMORY;
    result->end_line = xmlSAX2GetLineNumber(ctxt);
    result->end_column = xmlSAX2GetColumnNumber(ctxt);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (ctxt->myDoc != NULL) xmlFreeDoc(ctxt->myDoc);
    xmlFreeParserCtxt(ctxt);
}

void lookd_xml_free(lookd_xml_result *result) {
    free(result->events);
    result->events = NULL;
    result->length = 0;
    result->capacity = 0;
}
