// The games this extension manages, one row each: what Vortex needs to find the game (its Nexus Mods
// domain, which Vortex uses as the game's id, the executable and the store ids) and where the game keeps
// its .forge archives, the folder anvilrt syncs.
//
// Sources (public, read 2026-12): the Nexus Mods game domains and executables as ChemBoy1's Vortex
// extensions for these games register them (nexusmods.com/site/mods/977, 989 and 990 for AC2,
// Brotherhood and Revelations); the Steam app ids from the store; the archives lying next to the
// executable (AC2's DataPC.forge, DataPC_Venezia.forge, ...; AC1's DataPC.forge beside
// AssassinsCreed_Dx9.exe), as the public forge tools that open them name their paths.
'use strict';

const GAMES = [
  {
    id: 'assassinscreed',
    name: 'Assassin\'s Creed',
    executable: 'AssassinsCreed_Dx9.exe',
    steamAppId: '15100',
    forgeFolder: '.',
  },
  {
    id: 'assassinscreedii',
    name: 'Assassin\'s Creed II',
    executable: 'AssassinsCreedIIGame.exe',
    steamAppId: '33230',
    forgeFolder: '.',
  },
  {
    id: 'assassinscreedbrotherhood',
    name: 'Assassin\'s Creed Brotherhood',
    executable: 'ACBSP.exe',
    steamAppId: '48190',
    forgeFolder: '.',
  },
  {
    id: 'assassinscreedrevelations',
    name: 'Assassin\'s Creed Revelations',
    executable: 'ACRSP.exe',
    steamAppId: '201870',
    forgeFolder: '.',
  },
];

// The row of a Vortex game id, or undefined.
function gameOf(gameId) {
  return GAMES.find((g) => g.id === gameId);
}

module.exports = {
  GAMES,
  gameOf
};
