// anvilrt serve: the editor's page. The pending patch lives here (undo and redo are this page's); every
// edit is sent, with the whole pending patch, to the server, whose patch engine checks it exactly as
// `anvilrt patch --dry-run` does; an edit it refuses is not taken, and its reason is shown.
'use strict';

const state = {
  info: null,
  patch: [],       // the pending patch: RFC 6902 and bulk operations
  undo: [],        // earlier pending patches
  redo: [],
  object: null,    // {datafile, key, pointer, rows}
  selected: new Map(),  // "datafile/key" -> {datafile, key}
  search: {field: 'any', q: '', page: 0, size: 50, total: 0},
  map: null,       // the MapCanvas (map.js)
  mapAsked: 0,     // the last /api/map request's number: an older answer is not drawn
};

const $ = (id) => document.getElementById(id);

// The server's token (serve/security.hpp): taken from the URL it printed (#token=, or ?token=), kept in
// this tab's sessionStorage, which belongs to this origin alone (never a cookie, which every port of
// 127.0.0.1 would receive), and sent as a header with every request; the address bar loses it at once.
const token = (() => {
  const given = new URLSearchParams(location.hash.slice(1)).get('token') ||
    new URLSearchParams(location.search).get('token');
  if (given) {
    sessionStorage.setItem('anvilrt_token', given);
    history.replaceState(null, '', location.pathname);
  }
  return sessionStorage.getItem('anvilrt_token') || '';
})();

async function call(path, body) {
  const init = body === undefined ? {headers: {'X-Anvilrt-Token': token}} :
    {method: 'POST', headers: {'Content-Type': 'application/json', 'X-Anvilrt-Token': token},
      body: JSON.stringify(body)};
  init.credentials = 'omit';
  const response = await fetch(path, init);
  let data = {};
  try { data = await response.json(); } catch (e) { data = {error: `${response.status} ${response.statusText}`}; }
  if (!response.ok && !data.error) data.error = `${response.status} ${response.statusText}`;
  return data;
}

function status(text, kind) {
  const s = $('status');
  s.textContent = text;
  s.className = kind || '';
}

// The pending patch as JSON, one operation a line.
function showPatch() {
  $('patch').textContent = state.patch.length === 0 ? '[]' :
    `[\n${state.patch.map((op) => `  ${JSON.stringify(op)}`).join(',\n')}\n]`;
  $('undo').disabled = state.undo.length === 0;
  $('redo').disabled = state.redo.length === 0;
}

// Proposes the pending patch plus `ops`: taken only when the engine accepts the whole.
async function propose(ops, where) {
  const candidate = state.patch.concat(ops);
  const answer = await call('/api/check', {patch: candidate});
  if (!answer.ok) {
    status(answer.error, 'error');
    if (where) where.classList.add('refused');
    return false;
  }
  state.undo.push(state.patch);
  state.redo = [];
  state.patch = candidate;
  status(`accepted: ${answer.edited_objects} object(s) change`, 'ok');
  showPatch();
  await reloadObject();
  await loadMap();
  return true;
}

async function undo() {
  if (state.undo.length === 0) return;
  state.redo.push(state.patch);
  state.patch = state.undo.pop();
  status('undone', 'ok');
  showPatch();
  await reloadObject();
  await loadMap();
}

async function redo() {
  if (state.redo.length === 0) return;
  state.undo.push(state.patch);
  state.patch = state.redo.pop();
  status('redone', 'ok');
  showPatch();
  await reloadObject();
  await loadMap();
}

// ---- search ----

async function search() {
  const s = state.search;
  $('search-total').textContent = 'searching…';
  const params = new URLSearchParams({field: s.field, q: s.q, page: s.page, size: s.size});
  const answer = await call(`/api/search?${params}`);
  if (answer.error) return status(answer.error, 'error');
  if (!answer.ready) {
    $('search-total').textContent = 'indexing…';
    setTimeout(search, 300);
    return;
  }
  s.total = answer.total;
  $('search-total').textContent = `${answer.total} object(s)`;
  $('page-number').textContent = ` page ${s.page + 1} of ${Math.max(1, Math.ceil(s.total / s.size))} `;
  const body = $('results').tBodies[0];
  body.replaceChildren();
  for (const o of answer.objects) {
    const row = body.insertRow();
    row.dataset.datafile = o.datafile;
    row.dataset.key = o.key;
    const id = `${o.datafile}/${o.key}`;
    const tick = document.createElement('input');
    tick.type = 'checkbox';
    tick.className = 'select';
    tick.checked = state.selected.has(id);
    tick.addEventListener('click', (e) => {
      e.stopPropagation();
      if (tick.checked) state.selected.set(id, {datafile: o.datafile, key: o.key});
      else state.selected.delete(id);
      showSelection();
    });
    row.insertCell().append(tick);
    Object.assign(row.insertCell(), {className: 'key'})  // the data file under the key: the classes get the room
      .append(o.key, Object.assign(document.createElement('span'), {className: 'hint', textContent: o.datafile_name}));
    Object.assign(row.insertCell(), {className: 'classes', textContent: o.classes});
    row.insertCell().textContent = o.instances;
    row.title = `materials: ${o.materials}\nmeshes: ${o.meshes}`;
    row.addEventListener('click', () => openObject(o.datafile, o.key));
    if (state.object && state.object.datafile === o.datafile && state.object.key === o.key) row.classList.add('selected');
  }
}

// ---- the object ----

async function openObject(datafile, key) {
  const answer = await call('/api/object', {datafile, key, patch: state.patch});
  if (answer.error) return status(answer.error, 'error');
  state.object = {datafile, key, pointer: answer.pointer, rows: answer.rows};
  $('object-pointer').textContent = answer.pointer;
  $('object-empty').classList.add('hidden');
  for (const row of $('results').tBodies[0].rows)
    row.classList.toggle('selected', Number(row.dataset.datafile) === datafile && row.dataset.key === key);
  renderObject();
  if (state.map) state.map.highlight(datafile, key);
}

async function reloadObject() {
  if (state.object) await openObject(state.object.datafile, state.object.key);
}

// A value typed in a field: a number where the field holds one, else the text.
function typed(row, text) {
  if (row.kind === 'scalar' && text.trim() !== '' && !Number.isNaN(Number(text))) {
    return row.type === 'f32' ? Math.fround(Number(text)) : Number(text);
  }
  return text;
}

function renderObject() {
  const body = $('fields').tBodies[0];
  body.replaceChildren();
  $('matrices').replaceChildren();
  for (const row of state.object.rows) {
    if (row.kind === 'matrix') {
      $('matrices').append(matrixEditor(row));
      continue;
    }
    const tr = body.insertRow();
    tr.insertCell().textContent = row.label;
    tr.insertCell().textContent = row.type;
    const cell = tr.insertCell();
    const shown = typeof row.value === 'string' ? row.value : JSON.stringify(row.value);
    if (row.editable) {
      const input = document.createElement('input');
      input.className = 'edit';
      input.value = shown;
      input.dataset.pointer = row.pointer;
      input.addEventListener('change', () => {
        propose([{op: 'replace', path: state.object.pointer + row.pointer, value: typed(row, input.value)}], input);
      });
      cell.append(input);
    } else {
      cell.textContent = shown;
      cell.className = 'read-only';
    }
    const note = tr.insertCell();
    note.className = 'note';
    note.textContent = row.note;
  }
}

// ---- matrices: position, rotation (degrees, yaw/pitch/roll), scale, and the raw 16 numbers ----

const degrees = (r) => r * 180 / Math.PI;
const radians = (d) => d * Math.PI / 180;

function decompose(m) {
  const axes = [m.slice(0, 3), m.slice(4, 7), m.slice(8, 11)];
  const scale = axes.map((a) => Math.hypot(a[0], a[1], a[2]));
  const r = axes.map((a, i) => a.map((v) => (scale[i] === 0 ? 0 : v / scale[i])));
  const pitch = Math.asin(Math.max(-1, Math.min(1, -r[0][2])));
  const yaw = Math.atan2(r[0][1], r[0][0]);
  const roll = Math.atan2(r[1][2], r[2][2]);
  return {position: [m[12], m[13], m[14]], rotation: [yaw, pitch, roll].map(degrees), scale};
}

function compose(m, rotation, scale) {
  const [yaw, pitch, roll] = rotation.map(radians);
  const [cy, sy, cp, sp, cr, sr] = [Math.cos(yaw), Math.sin(yaw), Math.cos(pitch), Math.sin(pitch), Math.cos(roll), Math.sin(roll)];
  const r = [[cp * cy, cp * sy, -sp], [sr * sp * cy - cr * sy, sr * sp * sy + cr * cy, sr * cp],
    [cr * sp * cy + sr * sy, cr * sp * sy - sr * cy, cr * cp]];
  const out = m.slice();
  for (let i = 0; i < 3; ++i) for (let j = 0; j < 3; ++j) out[4 * i + j] = Math.fround(r[i][j] * scale[i]);
  return out;
}

function numberInputs(values, name) {
  return values.map((v, i) => {
    const input = document.createElement('input');
    input.value = String(Math.round(v * 1e6) / 1e6 === v ? v : v);
    input.name = `${name}${i}`;
    input.className = name;
    return input;
  });
}

function matrixEditor(row) {
  const m = row.value;
  const d = decompose(m);
  const box = document.createElement('div');
  box.className = 'matrix';
  box.dataset.pointer = row.pointer;
  const title = document.createElement('div');
  title.textContent = row.label;
  box.append(title);
  const position = numberInputs(d.position, 'position');
  const rotation = numberInputs(d.rotation, 'rotation');
  const scale = numberInputs(d.scale, 'scale');
  for (const [label, inputs] of [['position', position], ['rotation°', rotation], ['scale', scale]]) {
    const line = document.createElement('div');
    line.append(`${label} `, ...inputs);
    box.append(line);
  }
  const apply = document.createElement('button');
  apply.type = 'button';
  apply.className = 'apply-matrix';
  apply.textContent = 'Apply';
  apply.addEventListener('click', () => {
    // What the user did not change keeps its exact numbers: a move changes only elements 12-14.
    const changed = (inputs, values) => inputs.some((input, i) => input.value !== String(values[i]));
    let out = m.slice();
    if (changed(rotation, d.rotation) || changed(scale, d.scale))
      out = compose(m, rotation.map((i) => Number(i.value)), scale.map((i) => Number(i.value)));
    position.forEach((input, i) => { out[12 + i] = Math.fround(Number(input.value)); });
    propose([{op: 'replace', path: state.object.pointer + row.pointer, value: out}], apply);
  });
  box.append(apply);
  const raw = document.createElement('details');
  raw.className = 'raw';
  const summary = document.createElement('summary');
  summary.textContent = 'the 16 numbers (column-major)';
  raw.append(summary);
  const cells = numberInputs(m, 'raw');
  cells.forEach((c, i) => { raw.append(c); if (i % 4 === 3) raw.append(document.createElement('br')); });
  const applyRaw = document.createElement('button');
  applyRaw.type = 'button';
  applyRaw.textContent = 'Apply the 16';
  applyRaw.addEventListener('click', () => {
    const out = cells.map((c) => Math.fround(Number(c.value)));
    propose([{op: 'replace', path: state.object.pointer + row.pointer, value: out}], applyRaw);
  });
  raw.append(applyRaw);
  box.append(raw);
  return box;
}

// ---- bulk operations on the selection ----

// The selection grouped by data file: the ticked results, else the object shown.
function selection() {
  const chosen = state.selected.size ? [...state.selected.values()] :
    (state.object ? [{datafile: state.object.datafile, key: state.object.key}] : []);
  const groups = new Map();
  for (const s of chosen) {
    if (!groups.has(s.datafile)) groups.set(s.datafile, []);
    groups.get(s.datafile).push(s.key);
  }
  return groups;
}

// One operation per data file of the selection (`fields` added to each).
function bulk(op, fields) {
  const groups = selection();
  if (groups.size === 0) {
    status('select an object first', 'error');
    return;
  }
  const ops = [];
  for (const [datafile, keys] of groups) {
    const o = {op, objects: keys, ...fields};
    if (state.info.folder) {
      o.archives = [state.info.datafile_archives[datafile]];
      o.datafiles = [state.info.datafile_names[datafile]];
    } else if (state.info.archive) {
      o.datafiles = [state.info.datafiles[datafile]];
    }
    ops.push(o);
  }
  propose(ops);
}

function numbers(ids) { return ids.map((id) => Number($(id).value)); }

function bindBulk() {
  $('bulk-swap').addEventListener('click', () => bulk('swap_material', {from: $('swap-from').value, to: $('swap-to').value}));
  $('bulk-transform').addEventListener('click', () => bulk('transform', {translate: numbers(['move-x', 'move-y', 'move-z'])}));
  $('bulk-duplicate').addEventListener('click', () =>
    bulk('duplicate_instance', {index: Number($('instance-index').value), translate: numbers(['move-x', 'move-y', 'move-z'])}));
  $('bulk-remove').addEventListener('click', () => bulk('remove_instance', {index: Number($('instance-index').value)}));
  $('bulk-switch').addEventListener('click', () => {
    const fields = {value: Number($('switch-value').value)};
    if ($('switch-slot').value.trim() !== '') fields.slot = Number($('switch-slot').value);
    bulk('set_switch_distance', fields);
  });
}

// ---- saving ----

async function save() {
  if (!state.info.patch_out) {
    const blob = new Blob([JSON.stringify(state.patch, null, 2) + '\n'], {type: 'application/json'});
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'patch.json';
    link.click();
    return status('the patch is downloaded', 'ok');
  }
  const answer = await call('/api/save', {patch: state.patch});
  if (answer.error) return status(answer.error, 'error');
  status(`saved to ${answer.saved}`, 'ok');
}

async function writeCopy(replace) {
  const name = $('copy-name').value;
  const answer = await call('/api/write', {patch: state.patch, name, replace});
  if (answer.error) {
    if (!replace && / exists: confirm/.test(answer.error) && window.confirm(`${answer.error}?`)) return writeCopy(true);
    return status(answer.error, 'error');
  }
  status(`written, read back and verified: ${answer.written}`, 'ok');
}

// ---- the map (map.js): every instance drawn once, the pending patch's changes on top ----

// The first answer holds every instance ("marks"); each later one only what the pending patch changes.
async function loadMap() {
  if (!state.info || !state.map) return;
  const asked = ++state.mapAsked;
  const marks = !state.map.base && !state.mapMarksAsked;
  if (marks) state.mapMarksAsked = true;
  const answer = await call('/api/map', {patch: state.patch, marks});
  if (answer.error) {
    if (marks) state.mapMarksAsked = false;
    $('map-note').textContent = answer.error;
    return;
  }
  if (answer.marks) {
    state.map.setMarks(answer.marks);
    const m = answer.marks;
    $('map-note').textContent = `${m.instances} instance(s)${m.unplaced ? `, ${m.unplaced} not placeable (not finite)` : ''}`;
  }
  if (asked === state.mapAsked || answer.marks) state.map.setChanges(answer);
  if (asked !== state.mapAsked && answer.marks) loadMap();  // an edit made while the marks came
}

// A mark dragged to level (x, y): a `replace` of its matrix as the pending patch leaves it, only its
// elements 12 and 13 changed (the map is top-down: z, element 14, and every other number kept exactly).
async function moveInstance(mark, x, y) {
  const answer = await call('/api/object', {datafile: mark.datafile, key: mark.key, patch: state.patch});
  if (answer.error) return status(answer.error, 'error');
  // The Visual's own list of instance matrices (view/placed_instances.cpp, FORMAT.md 2.2/3.2).
  const row = answer.rows.find((r) => r.kind === 'matrix' && r.pointer === `/instance/instances/${mark.index}`);
  if (!row) return status(`${answer.pointer} has no /instance/instances/${mark.index} matrix`, 'error');
  const value = row.value.slice();
  value.splice(12, 2, Math.fround(x), Math.fround(y));
  if (await propose([{op: 'replace', path: answer.pointer + row.pointer, value}]))
    await openObject(mark.datafile, mark.key);
}

// The selection's count, on the map and in the results' ticks.
function showSelection() {
  $('map-selection').textContent = state.selected.size ? `${state.selected.size} object(s) selected` : '';
  $('map-clear').disabled = state.selected.size === 0;
  for (const row of $('results').tBodies[0].rows)
    row.querySelector('input.select').checked = state.selected.has(`${row.dataset.datafile}/${row.dataset.key}`);
  if (state.map) state.map.select([...state.selected.values()]);
}

function bindMap() {
  state.map = new MapCanvas($('map'), {
    open: (mark) => openObject(mark.datafile, mark.key),
    move: moveInstance,
    select: (objects) => {
      state.selected = new Map(objects.map((o) => [`${o.datafile}/${o.key}`, o]));
      showSelection();
      status(`${objects.length} object(s) selected on the map`, 'ok');
    },
  });
  window.anvilrtMap = state.map;  // the tests' and the bench's hook: its timing, where(), zoom()
  $('map-fit').addEventListener('click', () => state.map.fit());
  $('map-clear').addEventListener('click', () => { state.selected.clear(); showSelection(); });
}

// ---- start ----

async function start() {
  const info = await call('/api/info');
  if (info.error) return status(info.error, 'error');
  state.info = info;
  $('file').textContent = `${info.file} (${info.kind}, ${info.game}, ${info.datafiles.length} data file(s))`;
  if (info.folder) $('copy-name').placeholder = "the copy's folder name (a new folder)";
  // Only the bulk operations the game has (no SwitchDistance on `ac2`: the server says which).
  for (const control of document.querySelectorAll('[data-op]'))
    control.classList.toggle('hidden', !control.dataset.op.split(' ').every((op) => info.bulk_ops.includes(op)));
  $('save').textContent = info.patch_out ? `Save patch (${info.patch_out_name})` : 'Save patch (download)';
  $('search-form').addEventListener('submit', (e) => {
    e.preventDefault();
    state.search.field = $('search-field').value;
    state.search.q = $('search-text').value;
    state.search.page = 0;
    search();
  });
  $('page-prev').addEventListener('click', () => { if (state.search.page > 0) { state.search.page--; search(); } });
  $('page-next').addEventListener('click', () => {
    if ((state.search.page + 1) * state.search.size < state.search.total) { state.search.page++; search(); }
  });
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('save').addEventListener('click', save);
  $('write-copy').addEventListener('click', () => writeCopy(false));
  bindBulk();
  bindMap();
  showPatch();
  showSelection();
  const map = loadMap();  // the map first: its instances are read while the index is built
  await search();
  state.info = await call('/api/info');  // the index's counts, now that it is ready
  await map;
}

document.addEventListener('DOMContentLoaded', start);
