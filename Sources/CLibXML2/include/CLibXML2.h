#ifndef MERIDIAN_CLIBXML2_H
#define MERIDIAN_CLIBXML2_H

// libxml2's streaming reader, opened with dlopen when the first GPX or KML file is read: with
// ICU, which it links, it is over a MiB of memory a map without tracks never uses. This header
// names none of libxml2's types, so nothing above needs its headers.

typedef struct mx_reader mx_reader;
/// libxml2's xmlTextReaderErrorFunc: (arg, message, severity, locator).
typedef void (*mx_error_handler)(void *arg, const char *message, int severity, void *locator);
enum mx_node { MX_OTHER = 0, MX_ELEMENT = 1, MX_END_ELEMENT = 2, MX_TEXT = 3, MX_DOCUMENT_TYPE = 4 };

/// NULL once libxml2 is loaded; else why it cannot be. Safe from any thread; done once.
const char *mx_load(void);

/// A reader over `size` bytes that never touches the network and never warns on stderr.
mx_reader *mx_reader_for_memory(const char *buffer, int size, const char *name);
void mx_set_error_handler(mx_reader *reader, mx_error_handler handler, void *arg);
void mx_free_reader(mx_reader *reader);
/// 1: a node; 0: the end; -1: an error.
int mx_read(mx_reader *reader);
enum mx_node mx_node(mx_reader *reader);
int mx_is_empty_element(mx_reader *reader);
const char *mx_local_name(mx_reader *reader);
const char *mx_value(mx_reader *reader);
/// The attribute's value, to be given back with mx_free; NULL when absent.
char *mx_attribute(mx_reader *reader, const char *name);
/// The line of the current node, or where the parser stands when that is unknown.
long mx_line(mx_reader *reader);
/// Where the parser stands.
int mx_parser_line(mx_reader *reader);
void mx_free(void *p);

#endif
