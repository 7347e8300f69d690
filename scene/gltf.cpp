// tinygltf's implementation, compiled once with the definitions of scene/gltf.hpp.
// tinygltf 2.7.0 with TINYGLTF_NO_FS leaves <fstream> out but still compiles WriteGltfSceneToFile, which
// anvilrt never calls: the header is included for it to compile.
#include <fstream>

#define TINYGLTF_IMPLEMENTATION
#include "scene/gltf.hpp"
