// <rapidjson/document.h> without GCC 12's false -Wstringop-overflow on short strings (GenericValue::
// SetStringRaw writing the terminator of an in-situ ShortString), which fires wherever a Document is
// populated from SAX events with copied keys. Include this before anything else includes the header.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#include <rapidjson/document.h>
#pragma GCC diagnostic pop
