// Compiles a .ksy for Python with the Kaitai Struct compiler's JavaScript build (npm
// kaitai-struct-compiler, which has no command line of its own). usage: node ksc.js FILE.ksy OUT_DIR
const fs = require("fs");
const path = require("path");
const yaml = require("js-yaml");
const KaitaiStructCompiler = require("kaitai-struct-compiler");

const [source, out] = process.argv.slice(2);
new KaitaiStructCompiler()
  .compile("python", yaml.load(fs.readFileSync(source, "utf8")), null, false)
  .then((files) => {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(out, name), text);
  })
  .catch((e) => {
    console.error(`ksc.js: ${source}: ${e}`);
    process.exit(1);
  });
