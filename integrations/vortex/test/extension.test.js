// The extension in a stand-in of Vortex (vortex_stand_in.js), running the real anvilrt (ANVILRT_BINARY,
// set by CTest: tests/CMakeLists.txt) on a generated game folder of AC2: registrations, installers, then
// three mods (two of anvilrt mod documents, one AnvilToolkit Extracted data file) enabled and deployed, one
// disabled and deployed again, a purge, a conflict and its action, and an error, each checked in the
// archives' bytes and in the notifications.
'use strict';

const assert = require('node:assert');
const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {test} = require('node:test');

const extension = require('../index.js');
const {GAMES} = require('../games.js');
const {VortexStandIn} = require('./vortex_stand_in.js');

const ANVILRT = process.env.ANVILRT_BINARY;
const GAME_ID = 'assassinscreedii';

function anvilrt(...args) {
  return childProcess.execFileSync(ANVILRT, args, {encoding: 'utf8', maxBuffer: 256 * 1024 * 1024});
}

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

// A game folder of two generated archives, the first key of each data file, and the originals' hashes.
function makeGame(root) {
  const game = path.join(root, 'game');
  fs.mkdirSync(game);
  const keys = {};
  const original = {};
  for (const [name, seed] of [['DataPC.forge', 1], ['DataPC_Venezia.forge', 2]]) {
    const file = path.join(game, name);
    anvilrt(
        'gen', '--forge', '--game', 'ac2', '--datafiles', '2', '--visuals', '2', '--seed', String(seed), '-q', '-o',
        file);
    const dump = JSON.parse(anvilrt('dump', '-q', file));
    keys[name] = Object.fromEntries(
        Object.entries(dump.datafiles).map(([datafile, d]) => [datafile, Object.keys(d.objects)[0]]));
    original[name] = sha256(file);
  }
  return {game, keys, original};
}

function replaceOp(archive, datafile, key, field, value) {
  return {op: 'replace', path: `/archives/${archive}/datafiles/${datafile}/objects/${key}/${field}`, value};
}

// A mod as Vortex stages it: its own folder under the staging folder, holding its document.
function stageMod(staging, id, name, ops) {
  fs.mkdirSync(path.join(staging, id), {recursive: true});
  fs.writeFileSync(
      path.join(staging, id, `${name}.json`), JSON.stringify({anvilrt_mod: 1, name, game: 'ac2', patch: ops}));
  return {id, type: extension.MOD_TYPE, installationPath: id, state: 'installed'};
}

// The folders of one test, removed when it ends.
// An AnvilToolkit mod as a player downloads it (a data file of DataPC.forge, extracted and changed, in
// "My Mod/Extracted/DataPC.forge/"), installed by the extension's installer into its staging folder.
function stageExtracted(root, staging, folder, vortex) {
  const download = path.join(root, 'download');
  const inside = path.join(download, 'My Mod', 'Extracted', 'DataPC.forge');
  fs.mkdirSync(inside, {recursive: true});
  anvilrt('extract', path.join(folder.game, 'DataPC.forge'), 'DataFile_001', '-q', '-o', path.join(root, 'x'));
  const edit = path.join(root, 'edit.json');
  fs.writeFileSync(edit, JSON.stringify([
    {op: 'replace', path: `/objects/${folder.keys['DataPC.forge'].DataFile_001}/managed`, value: 7}
  ]));
  anvilrt('patch', path.join(root, 'x', 'DataFile_001.data'), edit, '-q', '-o', path.join(inside, 'DataFile_001.data'));
  // And a data file the archive lacks, which AnvilToolkit's repack would add (so does the extension: --allow-new).
  fs.copyFileSync(path.join(root, 'x', 'DataFile_001.data'), path.join(inside, '4242_-_Fresh.data'));
  const files = [
    'My Mod/', 'My Mod/Extracted/', 'My Mod/Extracted/DataPC.forge/', 'My Mod/Extracted/DataPC.forge/DataFile_001.data',
    'My Mod/Extracted/DataPC.forge/4242_-_Fresh.data'
  ];
  const installer = vortex.installers.find((i) => i.id === 'anvilrt-extracted');
  return installer.install(files, path.join(staging, 'My Mod-12-1-0-1700000000.installing'), GAME_ID).then((result) => {
    const type = VortexStandIn.applyInstructions(result.instructions, download, path.join(staging, 'ext-12'));
    return {id: 'ext-12', type, installationPath: 'ext-12', state: 'installed'};
  });
}

// A field of the object `key` of the archive's data files, as `anvilrt dump` reads it.
function fieldOf(archive, key, field) {
  const dump = JSON.parse(anvilrt('dump', '-q', archive));
  for (const d of Object.values(dump.datafiles))
    if (d.objects[key]) return d.objects[key][field];
  return undefined;
}

async function setUp(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'anvilrt-vortex-'));
  t.after(() => fs.rmSync(root, {recursive: true, force: true}));
  const folder = makeGame(root);
  const staging = path.join(root, 'staging');
  const vortex = new VortexStandIn();
  extension.init(vortex.context, vortex.vortexApi, {anvilrt: ANVILRT});
  vortex.started();
  vortex.stagingFolders[GAME_ID] = staging;
  vortex.state.settings.gameMode.discovered[GAME_ID] = {path: folder.game};
  vortex.state.persistent.profiles.p = {id: 'p', gameId: GAME_ID, modState: {}};
  vortex.state.persistent.mods[GAME_ID] = {};
  const k = folder.keys;
  const mods = {
    alpha: stageMod(
        staging, 'alpha-1', 'alpha',
        [replaceOp('DataPC.forge', 'DataFile_000', k['DataPC.forge'].DataFile_000, 'managed', 3)]),
    beta: stageMod(
        staging, 'beta-7', 'beta',
        [replaceOp('DataPC_Venezia.forge', 'DataFile_001', k['DataPC_Venezia.forge'].DataFile_001, 'managed', 5)]),
    gamma: stageMod(
        staging, 'gamma-2', 'gamma',
        [replaceOp('DataPC.forge', 'DataFile_000', k['DataPC.forge'].DataFile_000, 'managed', 6)]),
  };
  mods.ext = await stageExtracted(root, staging, folder, vortex);
  for (const mod of Object.values(mods)) vortex.state.persistent.mods[GAME_ID][mod.id] = mod;
  const enable = (mod, enabled) => (vortex.state.persistent.profiles.p.modState[mod.id] = {enabled});
  const hashes = () =>
      Object.fromEntries(Object.keys(folder.original).map((a) => [a, sha256(path.join(folder.game, a))]));
  const installedNames = () => JSON.parse(anvilrt('mod', 'list', '--json', folder.game)).mods.map((m) => m.name);
  return {root, folder, vortex, mods, enable, hashes, installedNames};
}

test('registers the four games and two mod types that Vortex does not deploy', {skip: !ANVILRT}, () => {
  const vortex = new VortexStandIn();
  extension.init(vortex.context, vortex.vortexApi, {anvilrt: ANVILRT});
  assert.deepStrictEqual(vortex.games.map((g) => g.id), GAMES.map((g) => g.id));
  for (const game of vortex.games) {
    assert.strictEqual(game.executable(), game.requiredFiles[0]);
    assert.ok(game.queryArgs.steam[0].id.length > 0);
  }
  assert.deepStrictEqual(vortex.modTypes.map((t) => t.id), [extension.MOD_TYPE, extension.EXTRACTED_TYPE]);
  for (const type of vortex.modTypes) {
    assert.strictEqual(
        type.getPath(vortex.games[1]), undefined, 'a mod type with a path would be copied into the game');
    assert.ok(type.isSupported(GAME_ID));
    assert.ok(!type.isSupported('skyrim'));
  }
});

test('installers take anvilrt mod documents and AnvilToolkit\'s Extracted layout', {skip: !ANVILRT}, async () => {
  const vortex = new VortexStandIn();
  extension.init(vortex.context, vortex.vortexApi, {anvilrt: ANVILRT});
  const byId = Object.fromEntries(vortex.installers.map((i) => [i.id, i]));
  const extracted = [
    'Readme.txt', 'MyMod/', 'MyMod/Extracted/', 'MyMod/Extracted/DataPC.forge/',
    'MyMod/Extracted/DataPC.forge/Venezia.data'
  ];
  assert.strictEqual((await byId['anvilrt-extracted'].testSupported(extracted, GAME_ID)).supported, true);
  assert.strictEqual((await byId['anvilrt-extracted'].testSupported(extracted, 'skyrim')).supported, false);
  assert.strictEqual((await byId['anvilrt-mod'].testSupported(extracted, GAME_ID)).supported, false);
  const result = await byId['anvilrt-extracted'].install(extracted, '/tmp/My Mod-12-1-0.installing', GAME_ID);
  assert.deepStrictEqual(result.instructions, [
    {
      type: 'copy',
      source: 'MyMod/Extracted/DataPC.forge/Venezia.data',
      destination: path.join('Extracted', 'DataPC.forge', 'Venezia.data'),
    },
    {type: 'generatefile', data: '{"name":"My_Mod-12-1-0"}', destination: 'anvilrt-mod.json'},
    {type: 'setmodtype', value: extension.EXTRACTED_TYPE},
  ]);
  const documents = ['brighter/brighter.json', 'brighter/readme.txt', 'other/brighter.json'];
  assert.strictEqual((await byId['anvilrt-mod'].testSupported(documents, GAME_ID)).supported, true);
  const installed = await byId['anvilrt-mod'].install(documents, '/tmp/x', GAME_ID);
  assert.deepStrictEqual(
      installed.instructions.map((i) => i.destination || i.value),
      ['brighter.json', 'other_brighter.json', extension.MOD_TYPE]);
});

test('deploy, disable, purge: the archives follow the enabled mods', {skip: !ANVILRT}, async (t) => {
  const {folder, vortex, mods, enable, hashes, installedNames} = await setUp(t);
  vortex.order = ['beta-7', 'alpha-1', 'ext-12', 'gamma-2'];
  enable(mods.alpha, true);
  enable(mods.beta, true);
  enable(mods.ext, true);
  await vortex.emit('did-deploy', 'p', {});
  const deployed = vortex.takeNotifications();
  assert.deepStrictEqual(deployed.map((n) => n.type), ['success'], JSON.stringify(deployed));
  const ext = 'My_Mod-12-1-0-1700000000';
  assert.match(deployed[0].message, new RegExp(`installed beta, alpha, ${ext}`));
  assert.deepStrictEqual(installedNames(), ['beta', 'alpha', ext]);
  const changed = folder.keys['DataPC.forge'].DataFile_001;
  assert.strictEqual(fieldOf(path.join(folder.game, 'DataPC.forge'), changed, 'managed'), 7);
  assert.match(anvilrt('ls', path.join(folder.game, 'DataPC.forge')), /0x00001092\s+Fresh/);
  const both = hashes();
  for (const archive of Object.keys(folder.original)) assert.notStrictEqual(both[archive], folder.original[archive]);

  enable(mods.beta, false);
  await vortex.emit('did-deploy', 'p', {});
  assert.match(vortex.takeNotifications()[0].message, /uninstalled beta/);
  assert.deepStrictEqual(installedNames(), ['alpha', ext]);
  assert.strictEqual(fieldOf(path.join(folder.game, 'DataPC.forge'), changed, 'managed'), 7);
  const one = hashes();
  assert.strictEqual(one['DataPC_Venezia.forge'], folder.original['DataPC_Venezia.forge']);
  assert.strictEqual(one['DataPC.forge'], both['DataPC.forge']);

  // Deployed again with nothing changed: nothing to say.
  await vortex.emit('did-deploy', 'p', {});
  assert.deepStrictEqual(vortex.takeNotifications(), []);

  await vortex.emit('did-purge', 'p');
  assert.match(vortex.takeNotifications()[0].message, new RegExp(`uninstalled alpha, ${ext}`));
  assert.deepStrictEqual(hashes(), folder.original);
  assert.deepStrictEqual(installedNames(), []);
});

test('a conflict is shown, nothing changed, until the player lets the later mod win', {skip: !ANVILRT}, async (t) => {
  const {folder, vortex, mods, enable, hashes, installedNames} = await setUp(t);
  vortex.order = ['alpha-1', 'gamma-2'];
  enable(mods.alpha, true);
  enable(mods.gamma, true);
  await vortex.emit('did-deploy', 'p', {});
  const refused = vortex.takeNotifications();
  assert.strictEqual(refused.length, 1);
  assert.strictEqual(refused[0].type, 'warning');
  assert.match(
      refused[0].message,
      /^alpha and gamma write \/archives\/DataPC\.forge\/.*managed: alpha leaves 3, gamma leaves 6$/);
  assert.deepStrictEqual(hashes(), folder.original);
  let dismissed = false;
  await refused[0].actions[0].action(() => (dismissed = true));
  assert.ok(dismissed);
  const allowed = vortex.takeNotifications();
  assert.deepStrictEqual(allowed.map((n) => n.type), ['info', 'success'], JSON.stringify(allowed));
  assert.match(allowed[0].message, /^gamma wins over alpha at .*managed \(6, was 3\)$/);
  assert.deepStrictEqual(installedNames(), ['alpha', 'gamma']);
  assert.notStrictEqual(hashes()['DataPC.forge'], folder.original['DataPC.forge']);
});

test('errors are shown: a game folder that holds no archive, a binary that is missing', {skip: !ANVILRT}, async (t) => {
  const {root, vortex, mods, enable} = await setUp(t);
  enable(mods.alpha, true);
  vortex.order = ['alpha-1'];
  const empty = path.join(root, 'empty');
  fs.mkdirSync(empty);
  vortex.state.settings.gameMode.discovered[GAME_ID] = {path: empty};
  await vortex.emit('did-deploy', 'p', {});
  const error = vortex.takeNotifications();
  assert.strictEqual(error.length, 1);
  assert.strictEqual(error[0].type, 'error');
  assert.match(error[0].message, /holds no \.forge archive/);
  const missing = new VortexStandIn();
  extension.init(missing.context, missing.vortexApi, {anvilrt: path.join(root, 'no-such-anvilrt')});
  missing.started();
  Object.assign(missing.state, vortex.state);
  missing.stagingFolders = vortex.stagingFolders;
  missing.order = vortex.order;
  await missing.emit('did-deploy', 'p', {});
  const notStarted = missing.takeNotifications();
  assert.strictEqual(notStarted[0].type, 'error');
  assert.match(notStarted[0].title, /could not sync/);
});
