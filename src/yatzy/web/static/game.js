// The game screen: renders the server's view and sends the player's choices.
// Every rule (what may be scored, the points, whose turn, the sums) comes from the
// server; the page only draws it, keeps the dice the player picks until the roll,
// and asks before a zero that the dice would not need.
//
// Its parts are ES modules (no build step), by section:
//   game-state.js    the page's constants and the one state object (`state`)
//   game-net.js      requests, the WebSocket, taking in views
//   game-kept.js     the kept dice across a reload
//   game-announce.js what changed, said aloud
//   game-sheet.js    the dice and the sheet
//   game-panels.js   roll-off, links, join, hand-over, status, play controls, winner, analyses
//   game-hold.js     the game's last write, held with Undo until the player ends the game
//   game-render.js   drawing it all, keeping the focus
//   game-input.js    buttons, forms and keys
//   talk.js, messages.js  preset phrases for all; free text between friends
import { connect, load } from "./game-net.js";
import { listen } from "./game-input.js";

listen();
load().then(connect);
