#!/usr/bin/env bash
# Builds for x86-64 Windows, with MinGW-w64 (cmake/mingw-w64-x86_64.cmake), the libraries anvilrt links,
# from Debian's own source packages at the versions the Linux build uses (those of the installed -dev
# packages), into BUILD/deps/prefix:
#   cmake/windows/deps.sh BUILD        (./dev windows runs it with BUILD = build-windows)
# The sources come through `apt-get source` with a private apt configuration under BUILD/deps/apt (a deb-src
# line derived from the machine's own sources, its own package lists and cache): the machine's /etc/apt is
# read, never changed. Each library is installed into BUILD/deps/install/<source>_<version> and kept there,
# so a second run rebuilds nothing and a new version rebuilds only its library; BUILD/deps/prefix is the
# union of them. Each library's debian/copyright is kept as share/doc/<source>/copyright (the zip's notices).
# Only what anvilrt links is built, and nothing else of a library (no tests, examples, tools or docs): -O2
# without debug information, each library's own build run on every core.
set -euo pipefail

# One line per library: the Debian package the Linux build links (its source package and version are
# built), then how: cmake [args] (the project's CMake), lzo2 and libpng (their library's sources compiled
# by a small CMake project of cmake/windows/, as their own makefiles without configure do: their autotools
# configure took minutes of compiler checks), zlib and libdeflate (their own configure and Makefile), boost,
# or header (the header-only libraries: cpp-httplib, tinygltf, nlohmann-json; the paths of the source copied).
# libarchive (mod packages: pipeline/mods/package_archive.cpp) is built by its CMake with only what its zip and
# 7-Zip readers need: zlib's deflate and xz's liblzma (built before it), no crypto (an encrypted member is
# refused anyway), no other codec, tool or test (POSIX_REGEX_LIB=NONE: its 3.6.2 CMake stops with "libgcc not
# found" when it looks for a regex library with ENABLE_LIBGCC off); of its build only the static library
# (build_libarchive). xz 5.4.1's CMake has no switch for its xz
# and xzdec programs: they are built beside liblzma, and not shipped.
libraries=(
  "liblzo2-dev lzo2"
  "zlib1g-dev zlib"
  "liblzma-dev cmake -DBUILD_TESTING=OFF"
  "libarchive-dev libarchive -DENABLE_ZLIB=ON -DENABLE_LZMA=ON -DENABLE_BZip2=OFF -DENABLE_ZSTD=OFF -DENABLE_LZ4=OFF -DENABLE_LZO=OFF -DENABLE_LIBB2=OFF -DENABLE_MBEDTLS=OFF -DENABLE_NETTLE=OFF -DENABLE_OPENSSL=OFF -DENABLE_CNG=OFF -DENABLE_LIBXML2=OFF -DENABLE_EXPAT=OFF -DENABLE_PCREPOSIX=OFF -DENABLE_LIBGCC=OFF -DPOSIX_REGEX_LIB=NONE -DENABLE_ICONV=OFF -DENABLE_ACL=OFF -DENABLE_XATTR=OFF -DENABLE_TAR=OFF -DENABLE_CPIO=OFF -DENABLE_CAT=OFF -DENABLE_TEST=OFF -DENABLE_WERROR=OFF"
  "libpng-dev libpng"
  "libcpp-httplib-dev header httplib.h"
  "libtinygltf-dev header tiny_gltf.h"
  "nlohmann-json3-dev header include/nlohmann"
  "libdeflate-dev libdeflate"
  "libabsl-dev cmake -DABSL_PROPAGATE_CXX_STD=ON -DBUILD_TESTING=OFF -DCMAKE_CXX_STANDARD=20"
  "libgtest-dev cmake -DBUILD_GMOCK=ON -DINSTALL_GTEST=ON"
  "rapidjson-dev cmake -DRAPIDJSON_BUILD_DOC=OFF -DRAPIDJSON_BUILD_EXAMPLES=OFF -DRAPIDJSON_BUILD_TESTS=OFF"
  "libboost-program-options1.74-dev boost"
)

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
toolchain=$source_dir/cmake/mingw-w64-x86_64.cmake
build=$(mkdir -p "$1" && cd "$1" && pwd)
deps=$build/deps
prefix=$deps/prefix
jobs=$(nproc)
triple=x86_64-w64-mingw32

# The private apt configuration: deb-src lines for the suites and mirrors of the machine's own deb lines.
apt_options=()
apt_ready=""
private_apt() {
  [ -n "$apt_ready" ] && return 0
  local apt=$deps/apt
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
  # "URI SUITE" of every enabled Debian deb source, one-line or deb822 format.
  { awk '$1 == "deb" && $2 !~ /^\[/ { print $2, $3 }' /etc/apt/sources.list 2>/dev/null || true
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] || continue
      awk 'BEGIN { RS = ""; FS = "\n" }
           { uris = ""; suites = ""; types = ""
             for (i = 1; i <= NF; i++) {
               if ($i ~ /^Types:/) types = substr($i, 7)
               if ($i ~ /^URIs:/) uris = substr($i, 6)
               if ($i ~ /^Suites:/) suites = substr($i, 8) }
             if (types ~ /deb/) { n = split(uris, u, " "); m = split(suites, s, " ")
               for (a = 1; a <= n; a++) for (b = 1; b <= m; b++) print u[a], s[b] } }' "$f"
    done; } | grep -E '/debian(-security)?/? ' | sort -u |
    while read -r uri suite; do echo "deb-src $uri $suite main"; done >"$apt/sources.list"
  apt_options=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Debug::NoLocking=1
    -o APT::Sandbox::User=root)
  echo "deps: apt-get update (deb-src: $(tr '\n' ';' <"$apt/sources.list"))"
  apt-get "${apt_options[@]}" update -qq
  apt_ready=1
}

# Unpacks the source package SOURCE=VERSION (Debian's patches applied) into $deps/src/ and prints its folder;
# with a third argument, --download-only, only downloads it there and prints that folder.
# A mirror keeps only the newest Debian revision of an upstream version (a security update replaces the one
# installed here): when VERSION itself cannot be had, the other revisions of the same upstream version the
# mirror lists are tried, newest first, and the one built is said.
fetch_source() {
  local source=$1 version=$2 dir=$deps/src/${1}_$2 candidate
  local upstream=${version%-*}
  local only=(${3:+"$3"})
  rm -rf "$dir"
  for candidate in "$version" $(apt-cache "${apt_options[@]}" madison "$source" 2>/dev/null |
    awk -F' [|] ' -v v="$version" -v u="$upstream" '$3 ~ /Sources/ && $2 != v && index($2, u "-") == 1 { print $2 }' |
    sort -u -r -V); do
    mkdir -p "$dir"
    if (cd "$dir" && apt-get "${apt_options[@]}" source "${only[@]}" -qq "$source=$candidate" >/dev/null 2>&1); then
      [ "$candidate" = "$version" ] || echo "deps: $source $version is not on the mirror: building $candidate" >&2
      if [ ${#only[@]} -gt 0 ]; then echo "$dir"; else find "$dir" -mindepth 1 -maxdepth 1 -type d; fi
      return 0
    fi
    rm -rf "$dir"
  done
  echo "deps: apt-get source $source=$version failed (is that version on the mirror?)" >&2
  exit 1
}

# -O2 without debug information for every library (CMake's Release is -O3).
cflags="-O2 -DNDEBUG"

# The source package SOURCE=VERSION downloaded (not unpacked) into $deps/src/, and only its debian/ folder
# and libs/program_options/src taken out of it, with the Debian patches that change those sources applied.
# Prints its folder. The installed headers (build_boost) must be of the same upstream version: checked.
fetch_source_of_boost() {
  local source=$1 version=$2 dir headers
  headers=$(dpkg-query -W -f '${source:Version}' libboost1.74-dev 2>/dev/null) || headers=""
  if [ "${headers%-*}" != "${version%-*}" ]; then
    echo "deps: libboost1.74-dev ${headers:-is not installed: it} is not $version: its headers must match the sources" >&2
    exit 1
  fi
  dir=$(fetch_source "$source" "$version" --download-only)
  mkdir -p "$dir/tree"
  tar -xf "$dir"/*.debian.tar.* -C "$dir/tree"
  tar -xf "$dir"/*.orig.tar.* -C "$dir/tree" --strip-components=1 --wildcards '*/libs/program_options/src/*'
  local patch
  while read -r patch; do
    [ -n "$patch" ] || continue
    if grep -q '^+++ [^ ]*/libs/program_options/src/' "$dir/tree/debian/patches/$patch"; then
      patch -s -p1 -d "$dir/tree" <"$dir/tree/debian/patches/$patch"
    fi
  done < <(grep -v '^#' "$dir/tree/debian/patches/series" 2>/dev/null || true)
  echo "$dir/tree"
}

configure_cmake() {  # SRC INSTALL [cmake args...]: a library's own CMake, configured into SRC/build-windows
  local src=$1 install=$2
  shift 2
  cmake -S "$src" -B "$src/build-windows" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DANVILRT_WINDOWS_DEPS="$staging" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="$cflags" -DCMAKE_CXX_FLAGS_RELEASE="$cflags" \
    -DCMAKE_INSTALL_PREFIX="$install" -DBUILD_SHARED_LIBS=OFF "$@" >/dev/null
}

build_cmake() {  # SRC INSTALL [cmake args...]
  configure_cmake "$@"
  cmake --build "$1/build-windows" -j "$jobs" >/dev/null
  cmake --install "$1/build-windows" >/dev/null
}

# libarchive 3.6.2's CMake builds its shared library beside the static one whatever BUILD_SHARED_LIBS says, and
# installs both: only the static one (archive_static, libarchive_static.a on Windows) is built, which halves
# the time of its build (its 120 sources compiled once, not twice), and installed by hand with the two
# headers and the pkg-config file its configure writes.
build_libarchive() {  # SRC INSTALL [cmake args...]
  local src=$1 install=$2
  configure_cmake "$@"
  cmake --build "$src/build-windows" -j "$jobs" --target archive_static >/dev/null
  install -D -m 644 -t "$install/lib" "$src/build-windows/libarchive/libarchive_static.a"
  install -D -m 644 -t "$install/include" "$src/libarchive/archive.h" "$src/libarchive/archive_entry.h"
  install -D -m 644 -t "$install/lib/pkgconfig" "$src/build-windows/build/pkgconfig/libarchive.pc"
}

# A library's sources compiled by the CMake project cmake/windows/NAME (its sources' folder given as VARIABLE).
build_own_cmake() {  # NAME VARIABLE SRC INSTALL
  local name=$1 variable=$2 src=$3 install=$4
  cmake --no-warn-unused-cli -S "$source_dir/cmake/windows/$name" -B "$src/build-windows" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DANVILRT_WINDOWS_DEPS="$staging" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="$cflags" \
    -DCMAKE_CXX_FLAGS_RELEASE="$cflags" -D"$variable=$src" -DCMAKE_INSTALL_PREFIX="$install" >/dev/null
  cmake --build "$src/build-windows" -j "$jobs" >/dev/null
  cmake --install "$src/build-windows" >/dev/null
}

# LZO, and the pkg-config file of the Linux one's name (its version from lzoconf.h).
build_lzo2() {  # SRC INSTALL
  build_own_cmake lzo2 LZO_SOURCE "$1" "$2"
  local version
  version=$(sed -n 's/^#define LZO_VERSION_STRING *"\(.*\)"/\1/p' "$1/include/lzo/lzoconf.h")
  mkdir -p "$2/lib/pkgconfig"
  printf '%s\n' "prefix=$2" 'includedir=${prefix}/include' 'libdir=${prefix}/lib' '' 'Name: lzo2' \
    'Description: LZO - a real-time data compression library' "Version: $version" 'Cflags: -I${includedir}/lzo' \
    'Libs: -L${libdir} -llzo2' >"$2/lib/pkgconfig/lzo2.pc"
}

build_libpng() {  # SRC INSTALL: zlib, before it in the list, from the staging prefix
  build_own_cmake libpng PNG_SOURCE "$1" "$2"
}

build_zlib() {  # SRC INSTALL: zlib's own configure, which takes the target from CHOST
  (cd "$1" && CHOST=$triple CC=$triple-gcc-posix AR=$triple-ar RANLIB=$triple-ranlib CFLAGS="$cflags" \
    ./configure --static --prefix="$2" >/dev/null && make -s -j "$jobs" libz.a >/dev/null && make -s install >/dev/null)
}

# A header-only library: each PATH of its source (a file, or a folder whole; a leading include/ dropped) copied
# into include/, where the build finds it (scene/CMakeLists.txt looks tinygltf's tiny_gltf.h and nlohmann's
# nlohmann/json.hpp up by path; Debian's shared libtinygltf is that header compiled with stb's image codecs,
# which anvilrt leaves out: scene/gltf.hpp). cpp-httplib (Debian's shared library is its one header compiled
# with OpenSSL, zlib and Brotli, none of which anvilrt serve uses) also gets a pkg-config file of the Linux
# one's name with Windows' sockets.
build_header() {  # SRC INSTALL PATH...
  local src=$1 install=$2 path
  shift 2
  for path in "$@"; do
    mkdir -p "$(dirname "$install/include/${path#include/}")"
    cp -r "$src/$path" "$install/include/${path#include/}"
  done
  [ -f "$install/include/httplib.h" ] || return 0
  mkdir -p "$install/lib/pkgconfig"
  local version
  version=$(sed -n 's/^#define CPPHTTPLIB_VERSION "\(.*\)"/\1/p' "$install/include/httplib.h")
  printf '%s\n' "prefix=$install" 'includedir=${prefix}/include' '' 'Name: cpp-httplib' \
    'Description: A C++ HTTP/HTTPS server and client library (header only)' "Version: $version" \
    'Libs: -lws2_32' 'Cflags: -I${includedir}' >"$install/lib/pkgconfig/cpp-httplib.pc"
}

build_libdeflate() {  # SRC INSTALL: its Makefile names the static archive libdeflatestatic.lib on Windows
  (cd "$1" && make -s -j "$jobs" CC=$triple-gcc-posix AR=$triple-ar CFLAGS="$cflags" DISABLE_SHARED=1 PREFIX="$2" \
    install >/dev/null &&
    mv "$2/lib/libdeflatestatic.lib" "$2/lib/libdeflate.a" && rm -rf "${2:?}/bin")
}

# Boost: Program_options' sources compiled into a static archive (the only compiled Boost library anvilrt
# links; Serialization is used for its headers), and the headers. Those are the installed libboost1.74-dev's
# (/usr/include/boost, linked from the prefix): the same Debian version as the source package, and the same
# for every system (Boost's headers choose the system as they are compiled). So only Program_options'
# sources are taken out of the source package's 60 MB tarball (fetch_source_of_boost), not its 60,000 files.
build_boost() {  # SRC INSTALL
  local src=$1 install=$2
  mkdir -p "$install/include"
  ln -s /usr/include/boost "$install/include/boost"
  cmake -S "$source_dir/cmake/windows/boost_program_options" -B "$src/build-windows" \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DANVILRT_WINDOWS_DEPS="$staging" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="$cflags" -DBOOST_SOURCE="$src" -DBOOST_INCLUDE="$install/include" \
    -DCMAKE_INSTALL_PREFIX="$install" >/dev/null
  cmake --build "$src/build-windows" -j "$jobs" >/dev/null
  cmake --install "$src/build-windows" >/dev/null
}

# The libraries' source versions: the prefix is up to date when it was assembled from these.
key=""
for line in "${libraries[@]}"; do
  read -r package method args <<<"$line"
  spec=$(dpkg-query -W -f '${source:Package}=${source:Version}' "$package" 2>/dev/null) ||
    { echo "deps: $package is not installed (its version is the one built for Windows)" >&2; exit 1; }
  key+="$spec $method $args"$'\n'
done
if [ -f "$prefix/.versions" ] && [ "$(cat "$prefix/.versions")" = "${key%$'\n'}" ]; then
  echo "deps: $prefix (up to date)"
  exit 0
fi

# Each library built once per version into deps/install/, then the prefix assembled from them in order (a
# library's build sees those before it in the list).
mkdir -p "$deps/install"
staging=$deps/prefix.new
rm -rf "$staging" && mkdir -p "$staging"
while read -r spec method args; do
  source=${spec%%=*} version=${spec#*=}
  install=$deps/install/${source}_$version
  if [ ! -f "$install/.built" ]; then
    private_apt
    echo "deps: building $source $version for Windows ($method)"
    started=$SECONDS
    if [ "$method" = boost ]; then src=$(fetch_source_of_boost "$source" "$version"); else
      src=$(fetch_source "$source" "$version"); fi
    rm -rf "$install"
    # shellcheck disable=SC2086  # args: the words of the line
    "build_$method" "$src" "$install" $args
    mkdir -p "$install/share/doc/$source"
    cp "$src/debian/copyright" "$install/share/doc/$source/copyright"
    rm -rf "$deps/src/${source}_$version"
    echo "deps: $source $version built in $((SECONDS - started)) s"
    touch "$install/.built"
  fi
  cp -al "$install/." "$staging/"  # hard links: the prefix costs no copy
  rm -f "$staging/.built"
done <<<"${key%$'\n'}"

# The .pc and CMake files that name the folder their library was installed to name the prefix instead, where
# the build looks (sed -i writes a new file: the hard-linked original keeps its text).
if [ -d "$staging/lib/pkgconfig" ]; then
  sed -i -E "s|^prefix=.*|prefix=$prefix|; s|^libdir=/.*|libdir=$prefix/lib|; s|^includedir=/.*|includedir=$prefix/include|" \
    "$staging"/lib/pkgconfig/*.pc
fi
{ grep -rlF --include='*.cmake' "$deps/install/" "$staging" || true; } | while read -r file; do
  sed -i -E "s|$deps/install/[^/\"]*|$prefix|g" "$file"
done
printf '%s' "${key%$'\n'}" >"$staging/.versions"
rm -rf "$prefix" && mv "$staging" "$prefix"
echo "deps: $prefix"
