// The only header lookd's Swift code sees of libxml2 (Debian's libxml2-dev): one function that reads a whole XML
// document and hands back its events as bytes. It names no libxml2 type.
#ifndef LOOKD_XML_H
#define LOOKD_XML_H

#include <stddef.h>
#include <stdint.h>

/// What `lookd_xml_parse` found. `events` holds records one after another, every number a native-endian uint32:
///   'S' line column name_length name attribute_count (key_length key value_length value)…   an element starts
///   'E'                                                                                      an element ends
///   'T' length bytes        text (character data and CDATA sections; consecutive pieces joined)
///   'C' length bytes        a comment
/// Names, keys and texts are UTF-8 as libxml2 reports them (a prefixed name is `prefix:local`; namespace
/// declarations are attributes `xmlns` / `xmlns:prefix`). Line and column are libxml2's position when it reported
/// the start tag (the end of it). Free with `lookd_xml_free`.
typedef struct lookd_xml_result {
    unsigned char *events;
    size_t length;
    size_t capacity;
    /// 0 when the parse succeeded; otherwise libxml2's error code for it (`XML_ERR_DOCUMENT_END` at the end counts as
    /// success), 2 when out of memory.
    int status;
    /// 1 when the document was shorter than 4 bytes: nothing was parsed (no error either).
    int too_short;
    /// How many errors and warnings libxml2 reported; the first one's position (0 when no parser existed yet); the
    /// last one's code.
    int error_count;
    int first_error_line;
    int first_error_column;
    int last_error_code;
    /// The parser's line and column when the parse ended (0 when no parser was made).
    int end_line;
    int end_column;
    /// 1 when an element started deeper than `max_depth`; where (libxml2's position); the parse stopped there.
    int too_deep;
    int too_deep_line;
    int too_deep_column;
    /// How many 'S' and 'T' records `events` holds (what a reader of the events may size its tables by).
    size_t element_count;
    size_t text_count;
} lookd_xml_result;

/// Reads `length` bytes of XML with libxml2's SAX2 push parser as Foundation's `XMLParser` sets it up on Linux
/// (recover on errors, entities substituted, no DTD loaded, the same callbacks), with no external entity or DTD
/// ever loaded: the first call sets libxml2's external entity loader (one per process) to one that refuses
/// everything, as XMLParser's does under its default policy; XML_PARSE_NONET too. Elements nested deeper than
/// `max_depth` stop the parse. Fills `result` (zeroed first); free it with `lookd_xml_free`. Thread-safe: each call has its own parser,
/// and libxml2's error handler is set per thread.
void lookd_xml_parse(const unsigned char *bytes, size_t length, int max_depth, lookd_xml_result *result);

/// Frees what `lookd_xml_parse` allocated. Safe on a zeroed result.
void lookd_xml_free(lookd_xml_result *result);

#endif
