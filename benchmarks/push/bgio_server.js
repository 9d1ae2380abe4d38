// boardgame.io 0.50.2 (socket.io) beside Kibitz in the push benchmark: the smallest game that
// changes, its state kept by boardgame.io's own in-memory store, served by its own Server.
// `node bgio_server.js PORT`; prints "ready" once it listens.
'use strict';
const { Server, Origins } = require('boardgame.io/server');

const Bench = {
  name: 'bench',
  setup: () => ({ n: 0 }),
  moves: {
    change: ({ G }) => {
      G.n += 1;
    },
  },
};

const port = Number(process.argv[2] || 8010);
const server = Server({ games: [Bench], origins: [Origins.LOCALHOST] });
server.run({ port, callback: () => console.log('ready') });
