// tinygltf (Debian's libtinygltf-dev, the header; its JSON through nlohmann-json3-dev) as anvilrt uses it:
// no images (no stb), no file system of its own. Every file of scene/ includes tinygltf through this header,
// so that the definitions below are the same wherever it is read; scene/gltf.cpp compiles its
// implementation. Files are read and written by platform/ (atomic output), glTF by the stream and memory
// functions.
#pragma once

#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#define TINYGLTF_NO_FS

#include <tiny_gltf.h>
