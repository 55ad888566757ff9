#include "CLibXML2.h"
#include <dlfcn.h>
#include <libxml/xmlmemory.h>
#include <libxml/xmlreader.h>
#include <pthread.h>
#include <stdio.h>

#define MX_API(X) \
    X(xmlReaderForMemory) X(xmlTextReaderSetErrorHandler) X(xmlFreeTextReader) X(xmlTextReaderRead) \
    X(xmlTextReaderNodeType) X(xmlTextReaderIsEmptyElement) X(xmlTextReaderConstLocalName) \
    X(xmlTextReaderConstValue) X(xmlTextReaderGetAttribute) X(xmlTextReaderGetParserLineNumber) \
    X(xmlTextReaderCurrentNode) X(xmlGetLineNo)

#define MX_POINTER(name) static __typeof__(name) *p_##name;
MX_API(MX_POINTER)
static xmlFreeFunc *p_xmlFree;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
    // libxml2 2.14 and later are libxml2.so.16; this reader's calls are the same in both.
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libxml2.so.16", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "libxml2 cannot be loaded (%s)", why ? why : "not found");
        return;
    }
#define MX_RESOLVE(name) \
    if (!(p_##name = (__typeof__(name) *)dlsym(library, #name))) { \
        snprintf(failure, sizeof failure, "libxml2 lacks %s", #name); \
        return; \
    }
    MX_API(MX_RESOLVE)
    // xmlFree is a variable of libxml2's: a pointer to its free function.
    if (!(p_xmlFree = (xmlFreeFunc *)dlsym(library, "xmlFree")) || !*p_xmlFree) {
        snprintf(failure, sizeof failure, "libxml2 lacks xmlFree");
        return;
    }
    loaded = 1;
}

const char *mx_load(void) {
    pthread_once(&once, load);
    return loaded ? NULL : failure;
}

#define R(reader) ((xmlTextReaderPtr)(reader))

mx_reader *mx_reader_for_memory(const char *buffer, int size, const char *name) {
    return (mx_reader *)p_xmlReaderForMemory(buffer, size, name, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
}

void mx_set_error_handler(mx_reader *r, mx_error_handler handler, void *arg) {
    p_xmlTextReaderSetErrorHandler(R(r), (xmlTextReaderErrorFunc)handler, arg);
}

void mx_free_reader(mx_reader *r) { p_xmlFreeTextReader(R(r)); }
int mx_read(mx_reader *r) { return p_xmlTextReaderRead(R(r)); }

enum mx_node mx_node(mx_reader *r) {
    switch (p_xmlTextReaderNodeType(R(r))) {
    case XML_READER_TYPE_ELEMENT: return MX_ELEMENT;
    case XML_READER_TYPE_END_ELEMENT: return MX_END_ELEMENT;
    case XML_READER_TYPE_TEXT: case XML_READER_TYPE_SIGNIFICANT_WHITESPACE: return MX_TEXT;
    case XML_READER_TYPE_DOCUMENT_TYPE: return MX_DOCUMENT_TYPE;
    default: return MX_OTHER;
    }
}

int mx_is_empty_element(mx_reader *r) { return p_xmlTextReaderIsEmptyElement(R(r)); }
const char *mx_local_name(mx_reader *r) { return (const char *)p_xmlTextReaderConstLocalName(R(r)); }
const char *mx_value(mx_reader *r) { return (const char *)p_xmlTextReaderConstValue(R(r)); }
char *mx_attribute(mx_reader *r, const char *name) { return (char *)p_xmlTextReaderGetAttribute(R(r), (const xmlChar *)name); }

long mx_line(mx_reader *r) {
    xmlNodePtr node = p_xmlTextReaderCurrentNode(R(r));
    long line = node ? p_xmlGetLineNo(node) : 0;
    return line > 0 ? line : p_xmlTextReaderGetParserLineNumber(R(r));
}

int mx_parser_line(mx_reader *r) { return p_xmlTextReaderGetParserLineNumber(R(r)); }
void mx_free(void *p) { (*p_xmlFree)(p); }
