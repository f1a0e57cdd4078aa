#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU, so encoding.h would pull in the system ICU headers, which
 * clash with the ICU copy inside Swift's Foundation ("UErrorCode has different definitions").
 * Nothing here touches the ICU-only fields of xmlCharEncodingHandler (we only pass pointers to
 * libxml2), so hiding them is safe. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
