#include <libxml/xmlreader.h>
#include <libxml/xmlmemory.h>

// xmlFree is a global function pointer in libxml2; Swift calls it through this.
static inline void meridian_xml_free(void *p) { xmlFree(p); }
