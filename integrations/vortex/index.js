// anvilrt's Vortex extension (README.md here): Vortex keeps the mods of Assassin's Creed I to
// Revelations in its staging folder, and after each deployment and purge `anvilrt mod sync` makes the
// game's .forge archives hold exactly the enabled mods, in Vortex's order: merged by what they change,
// reversible, all or nothing. Nothing is copied into the game folder by Vortex itself.
//
// Vortex loads this file and calls its default export with the extension context. The Vortex API it uses
// is the context's (registerGame, registerModType, registerInstaller, once, api.getState,
// api.onAsync, api.sendNotification) and two members of the `vortex-api` module (selectors.
// installPathForGame, util.sortMods); `init` takes that module as an argument, so that the tests can hand
// it a stand-in.
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');

const {GAMES, gameOf} = require('./games');

const MOD_TYPE = 'anvilrt-mod';              // a folder of anvilrt mod documents (docs/mods.md)
const EXTRACTED_TYPE = 'anvilrt-extracted';  // AnvilToolkit's Extracted/<archive>.forge/<file>.data
const NOTIFICATION_ID = 'anvilrt-sync';

// The anvilrt executable: options.anvilrt (tests), else ANVILRT_VORTEX_BINARY, else the one beside this
// file (where the README tells the player to put it).
function anvilrtBinary(options) {
  if (options && options.anvilrt) return options.anvilrt;
  if (process.env.ANVILRT_VORTEX_BINARY) return process.env.ANVILRT_VORTEX_BINARY;
  return path.join(__dirname, process.platform === 'win32' ? 'anvilrt.exe' : 'anvilrt');
}

// The path of `file` (as an archive lists it) from its "Extracted" folder on, or undefined: AnvilToolkit's
// layout is Extracted/<archive>.forge/<data file>.
function fromExtracted(file) {
  const parts = file.split(/[\\/]+/).filter((p) => p.length > 0);
  const at = parts.findIndex((p) => p.toLowerCase() === 'extracted');
  if (at < 0 || parts.length < at + 3 || !parts[at + 1].toLowerCase().endsWith('.forge')) return undefined;
  return parts.slice(at).join(path.sep);
}

const isDocument = (file) => file.toLowerCase().endsWith('.json');

function testExtracted(files, gameId) {
  const supported = gameOf(gameId) !== undefined && files.some((f) => fromExtracted(f) !== undefined);
  return Promise.resolve({supported, requiredFiles: []});
}

// A mod name anvilrt takes (1 to 64 of letters, digits, '.', '_', '-', not starting with '.': docs/mods.md)
// made of Vortex's name for the mod's folder ("Brighter Lanterns-12-1-0-1700000000.installing").
function modNameOf(destinationPath) {
  const folder = path.basename(destinationPath || 'mod').replace(/\.installing$/i, '');
  const name = folder.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 64);
  return name.length > 0 ? name : 'mod';
}

// The Extracted tree as AnvilToolkit's layout has it, and the package's anvilrt-mod.json: the mod's own, or
// one that names it after its Vortex folder (a package without one is named after its folder, which Vortex
// names with spaces).
function installExtracted(files, destinationPath) {
  const instructions = [];
  for (const file of files) {
    const destination = fromExtracted(file);
    if (destination !== undefined && !/[\\/]$/.test(file)) instructions.push({type: 'copy', source: file, destination});
  }
  const description = files.find((f) => path.basename(f).toLowerCase() === 'anvilrt-mod.json');
  if (description !== undefined)
    instructions.push({type: 'copy', source: description, destination: 'anvilrt-mod.json'});
  else
    instructions.push({
      type: 'generatefile',
      data: JSON.stringify({name: modNameOf(destinationPath)}),
      destination: 'anvilrt-mod.json',
    });
  instructions.push({type: 'setmodtype', value: EXTRACTED_TYPE});
  return Promise.resolve({instructions});
}

function testDocuments(files, gameId) {
  const supported =
      gameOf(gameId) !== undefined && files.some(isDocument) && !files.some((f) => fromExtracted(f) !== undefined);
  return Promise.resolve({supported, requiredFiles: []});
}

// The mod's documents side by side at the top of its staging folder (a name two share keeps its folders).
function installDocuments(files) {
  const instructions = [];
  const taken = new Set();
  for (const file of files.filter(isDocument)) {
    let destination = path.basename(file);
    if (taken.has(destination.toLowerCase())) destination = file.split(/[\\/]+/).join('_');
    taken.add(destination.toLowerCase());
    instructions.push({type: 'copy', source: file, destination});
  }
  instructions.push({type: 'setmodtype', value: MOD_TYPE});
  return Promise.resolve({instructions});
}

// What `anvilrt mod sync` is given for one enabled mod: an Extracted mod's staging folder, or the
// documents of an anvilrt mod's folder, in name order.
function modArguments(mod, folder) {
  if (mod.type === EXTRACTED_TYPE) return [folder];
  return fs.readdirSync(folder).filter(isDocument).sort().map((name) => path.join(folder, name));
}

// Runs `anvilrt mod sync GAME MOD... --json`; resolves with its exit code, its report (the JSON it printed,
// or null) and what it said on stderr. Never rejects: a binary that cannot be started is a report too.
function runSync(binary, gameFolder, mods, allowOverrides) {
  // --allow-new: an Extracted mod's data file that its archive lacks is added, as AnvilToolkit's repack adds it.
  const args = ['mod', 'sync', gameFolder, ...mods, '--json', '--allow-new'];
  if (allowOverrides) args.push('--allow-overrides');
  return new Promise((resolve) => {
    childProcess.execFile(binary, args, {maxBuffer: 256 * 1024 * 1024, windowsHide: true}, (error, stdout, stderr) => {
      let report = null;
      try {
        report = JSON.parse(stdout);
      } catch (e) {
        report = null;
      }
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({code, report, stderr: String(stderr), startError: error && !report ? error.message : null});
    });
  });
}

const valueText = (v) => (v === null || v === undefined ? 'nothing' : JSON.stringify(v));

function conflictLine(c) {
  return `${c.earlier} and ${c.later} write ${c.pointer}: ${c.earlier} leaves ${valueText(c.earlier_value)}, ` +
      `${c.later} leaves ${valueText(c.later_value)}`;
}

function overrideLine(c) {
  return `${c.later} wins over ${c.earlier} at ${c.pointer} (${valueText(c.later_value)}, was ` +
      `${valueText(c.earlier_value)})`;
}

function describeChange(report) {
  const parts = [];
  if (report.installed.length) parts.push(`installed ${report.installed.join(', ')}`);
  if (report.reinstalled.length) parts.push(`installed again ${report.reinstalled.join(', ')}`);
  if (report.uninstalled.length) parts.push(`uninstalled ${report.uninstalled.join(', ')}`);
  return parts.length ? parts.join('; ') : 'the archives checked';
}

// The notifications of one sync's outcome. `allowOverrides`: what the player's action on a conflict does
// (the same sync again, the later mod winning); its promise is returned by the action for a caller that
// waits (Vortex does not).
function notify(api, outcome, allowOverrides) {
  const send = (type, title, message, extra) =>
      api.sendNotification(Object.assign({id: NOTIFICATION_ID, type, title, message}, extra || {}));
  const report = outcome.report;
  if (report === null) {
    const why = outcome.startError || outcome.stderr.trim() || `exit ${outcome.code}`;
    return send('error', 'anvilrt could not sync the game\'s archives', why);
  }
  if (report.error) return send('error', 'anvilrt: the mods were not deployed', report.error);
  if (report.failures.length > 0)
    return send(
        'error', 'anvilrt: a mod does not apply; nothing was changed',
        report.failures.map((f) => `${f.mod}: ${f.message}`).join('\n'));
  if (report.refused && report.conflicts.length > 0)
    return send(
        'warning', 'anvilrt: mods conflict; nothing was changed', report.conflicts.map(conflictLine).join('\n'), {
          actions: [{
            title: 'Let the later mod win',
            action: (dismiss) => {
              dismiss();
              return allowOverrides();
            }
          }]
        });
  if (report.refused) return send('error', 'anvilrt: the mods were not deployed', report.refusal || 'refused');
  if (report.overrides.length > 0)
    send('info', 'anvilrt: later mods win these fields', report.overrides.map(overrideLine).join('\n'));
  if (!report.nothing_to_do)
    send('success', 'anvilrt: mods deployed', describeChange(report), {id: `${NOTIFICATION_ID}-done`, displayMS: 5000});
  return undefined;
}

// The enabled mods of our two types for `profile`, in Vortex's order, as sync's arguments.
async function enabledModArguments(api, vortexApi, state, profile) {
  const staging = vortexApi.selectors.installPathForGame(state, profile.gameId);
  const installed = (state.persistent.mods || {})[profile.gameId] || {};
  const modState = profile.modState || {};
  const enabled = Object.values(installed).filter(
      (m) => (m.type === MOD_TYPE || m.type === EXTRACTED_TYPE) && modState[m.id] && modState[m.id].enabled);
  const sorted = await vortexApi.util.sortMods(profile.gameId, enabled, api);
  return sorted.flatMap((m) => modArguments(m, path.join(staging, m.installationPath)));
}

// After a deployment (`purge` false) or a purge of `profileId`: the game's archives synced.
async function syncProfile(api, vortexApi, binary, profileId, purge, allowOverrides = false) {
  const state = api.getState();
  const profile = state.persistent.profiles[profileId];
  const game = profile && gameOf(profile.gameId);
  if (!game) return undefined;
  const discovery = state.settings.gameMode.discovered[game.id];
  if (!discovery || !discovery.path)
    return api.sendNotification({
      id: NOTIFICATION_ID,
      type: 'error',
      title: 'anvilrt: the game was not found',
      message: `${game.name} has no game folder in Vortex`
    });
  let mods;
  try {
    mods = purge ? [] : await enabledModArguments(api, vortexApi, state, profile);
  } catch (e) {
    return api.sendNotification(
        {id: NOTIFICATION_ID, type: 'error', title: 'anvilrt: a mod\'s folder cannot be read', message: e.message});
  }
  const outcome = await runSync(binary, path.join(discovery.path, game.forgeFolder), mods, allowOverrides);
  return notify(api, outcome, () => syncProfile(api, vortexApi, binary, profileId, purge, true));
}

function registerGame(context, game) {
  context.registerGame({
    id: game.id,
    name: game.name,
    mergeMods: true,
    queryArgs: {steam: [{id: game.steamAppId}]},
    queryModPath: () => '.',
    executable: () => game.executable,
    requiredFiles: [game.executable],
    details: {steamAppId: Number(game.steamAppId)},
  });
}

function init(context, vortexApi, options = {}) {
  const binary = anvilrtBinary(options);
  const toBlue = vortexApi.util.toBlue;
  for (const game of GAMES) registerGame(context, game);
  const ours = (gameId) => gameOf(gameId) !== undefined;
  // Their files stay in the staging folder: a mod type without a path is never deployed by Vortex.
  context.registerModType(
      MOD_TYPE, 25, ours, () => undefined, toBlue(() => Promise.resolve(false)),
      {name: 'anvilrt mod', noConflicts: true});
  context.registerModType(
      EXTRACTED_TYPE, 25, ours, () => undefined, toBlue(() => Promise.resolve(false)),
      {name: 'AnvilToolkit Extracted (anvilrt)', noConflicts: true});
  context.registerInstaller('anvilrt-extracted', 24, toBlue(testExtracted), toBlue(installExtracted));
  context.registerInstaller('anvilrt-mod', 25, toBlue(testDocuments), toBlue(installDocuments));
  context.once(() => {
    context.api.onAsync('did-deploy', (profileId) => syncProfile(context.api, vortexApi, binary, profileId, false));
    context.api.onAsync('did-purge', (profileId) => syncProfile(context.api, vortexApi, binary, profileId, true));
  });
  return true;
}

module.exports = {
  default : (context) => init(context, require('vortex-api')), init, MOD_TYPE, EXTRACTED_TYPE,
};
