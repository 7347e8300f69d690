// A stand-in for exactly the part of Vortex the extension uses (index.js says which): an extension
// context that records what is registered, an API whose state the test sets and whose notifications it
// reads, the events Vortex emits after a deployment and a purge, and the two members of the `vortex-api`
// module. The shapes are Vortex's (src/renderer/src/types/IExtensionContext.ts, IState.ts).
'use strict';

class VortexStandIn {
  constructor() {
    this.games = [];
    this.modTypes = [];
    this.installers = [];
    this.notifications = [];
    this.listeners = {};
    this.onceCallbacks = [];
    // Vortex's state, as far as the extension reads it.
    this.state = {
      persistent: {profiles: {}, mods: {}},
      settings: {gameMode: {discovered: {}}},
    };
    this.stagingFolders = {};  // by game id: what selectors.installPathForGame gives
    this.order = [];           // mod ids in the order Vortex's rules sort them (util.sortMods)
    const stand = this;
    this.context = {
      registerGame: (game) => stand.games.push(game),
      registerModType: (id, priority, isSupported, getPath, test, options) =>
          stand.modTypes.push({id, priority, isSupported, getPath, test, options}),
      registerInstaller: (id, priority, testSupported, install) =>
          stand.installers.push({id, priority, testSupported, install}),
      once: (callback) => stand.onceCallbacks.push(callback),
      api: {
        getState: () => stand.state,
        sendNotification: (notification) => {
          stand.notifications.push(notification);
          return notification.id;
        },
        onAsync: (event, listener) => (stand.listeners[event] = stand.listeners[event] || []).push(listener),
      },
    };
    this.vortexApi = {
      selectors: {installPathForGame: (state, gameId) => stand.stagingFolders[gameId]},
      util: {
        sortMods: (gameId, mods) =>
            Promise.resolve([...mods].sort((a, b) => stand.order.indexOf(a.id) - stand.order.indexOf(b.id))),
        toBlue: (fn) => fn,
      },
    };
  }

  // What Vortex does once every extension is loaded.
  started() {
    for (const callback of this.onceCallbacks) callback();
  }

  // Vortex's api.emitAndAwait: every listener of `event`, awaited in turn.
  async emit(event, ...args) {
    for (const listener of this.listeners[event] || []) await listener(...args);
  }

  // Notifications sent since the last call.
  takeNotifications() {
    const sent = this.notifications;
    this.notifications = [];
    return sent;
  }
}

module.exports = {VortexStandIn};
