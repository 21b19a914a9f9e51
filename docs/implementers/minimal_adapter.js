#!/usr/bin/env node
// A minimal conformance adapter for Node.js (20 or later, no npm packages): the first
// edition's leg tickets and camel moves, nothing more. It is minimal_adapter.py line for line;
// docs/implementers/README.md explains each part. Whatever else a case needs (tiles, finish
// cards, the end of a leg or of the race, another edition, a module or a variant) it answers
// "skipped", naming what is missing.
//
//   camelup conformance run --adapter "node docs/implementers/minimal_adapter.js" \
//       --expectations docs/implementers/minimal-expectations.toml
"use strict";

const readline = require("node:readline");

const CAMELS = ["blue", "green", "orange", "yellow", "white"]; // the first edition's racing camels
const TICKETS = [2, 3, 5]; // each colour's leg tickets, bottom to top

class Refused extends Error {
  // The engine refuses an action: the suite's error code and the clause it breaks.
  constructor(code, clause) {
    super(code);
    this.code = code;
    this.clause = clause;
  }
}

class NotImplementedHere extends Error {} // the case needs a rule we lack: skip the case

function newGame(ruleset, setup) {
  const track = {};
  for (let space = 1; space <= 16; space++) track[String(space)] = [];
  const spaceOf = {};
  for (const roll of setup.racing_rolls) spaceOf[roll.die] = roll.value;
  for (const camel of setup.stacking) track[String(spaceOf[camel])].push(camel); // bottom to top
  const ticketStacks = {};
  for (const camel of CAMELS) ticketStacks[camel] = [...TICKETS];
  const players = [];
  for (let seat = 0; seat < ruleset.players; seat++) {
    players.push({
      money: 3,
      leg_tickets: [],
      pyramid_tickets: 0,
      finish_cards: [...CAMELS],
      partner: null,
    });
  }
  return {
    ruleset,
    track,
    tiles: [],
    pyramid: [...CAMELS],
    revealed: [],
    ticket_stacks: ticketStacks,
    players,
    winner_pile: [],
    loser_pile: [],
    to_move: setup.start_player,
    start_player: setup.start_player,
    leg: 1,
    result: null,
  };
}

function play(state, action) {
  // The position after `action`; throws Refused for an illegal one.
  if (state.result !== null) throw new Refused("game-over", "turn.game-over");
  if (action.player !== state.to_move) throw new Refused("not-your-turn", "turn.order");
  state = structuredClone(state);
  if (action.type === "take_leg_ticket") {
    const stack = state.ticket_stacks[action.camel];
    if (stack.length === 0) throw new Refused("ticket-stack-empty", "bet.leg.empty-stack");
    const ticket = { camel: action.camel, value: stack.pop() };
    state.players[action.player].leg_tickets.push(ticket);
  } else if (action.type === "take_pyramid_ticket") {
    rollDie(state, action);
  } else {
    throw new NotImplementedHere(`the action ${action.type}`);
  }
  state.to_move = (action.player + 1) % state.players.length;
  return state;
}

function rollDie(state, action) {
  const roll = action.roll;
  if (!state.pyramid.includes(roll.die)) {
    throw new Refused("die-not-in-pyramid", "move.die.stays-out");
  }
  if (![1, 2, 3].includes(roll.value) || (roll.colour !== undefined && roll.colour !== null)) {
    throw new Refused("die-face", "dice.racing-faces");
  }
  if (state.tiles.length > 0) throw new NotImplementedHere("tiles");
  state.pyramid.splice(state.pyramid.indexOf(roll.die), 1);
  state.revealed.push({ die: roll.die, value: roll.value });
  state.players[action.player].pyramid_tickets += 1;
  // The camel of the die's colour moves with every camel above it, onto the top of the
  // stack it reaches.
  const space = Object.keys(state.track).find((s) => state.track[s].includes(roll.die));
  const stack = state.track[space];
  const unit = stack.splice(stack.indexOf(roll.die));
  const target = Number(space) + roll.value;
  if (target > 16) throw new NotImplementedHere("the end of the race");
  state.track[String(target)].push(...unit);
  if (state.pyramid.length === 0) throw new NotImplementedHere("the end of a leg");
}

function run(testCase) {
  const ruleset = testCase.ruleset;
  if (ruleset.edition !== "first" || ruleset.modules.length || ruleset.variants.length) {
    return { skipped: { reason: "only the plain first edition" } };
  }
  if (!(ruleset.players >= 2 && ruleset.players <= 8)) {
    const refusal = { code: "player-count", clause: "ruleset.players.first" };
    return { initial_error: refusal, steps: [] };
  }
  const given = testCase.given;
  let state = "state" in given ? given.state : newGame(ruleset, given.setup);
  const reply = { initial_state: state, steps: [] };
  try {
    for (const step of testCase.steps) {
      try {
        state = play(state, step.action);
        reply.steps.push({ state });
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        // The position stays as it was, and the reply says so.
        reply.steps.push({ error: { code: error.code, clause: error.clause }, state });
      }
    }
  } catch (error) {
    if (!(error instanceof NotImplementedHere)) throw error;
    return { skipped: { reason: `not implemented: ${error.message}` } };
  }
  return reply;
}

const HELLO = {
  protocol: 1,
  implementation: { name: "minimal-node", version: "1.0.0", language: "javascript" },
  supports: { editions: ["first"], modules: [], variants: [] },
  capabilities: ["error_clauses", "state_after_refusal"],
};

// One JSON message per line on stdin, one reply per line on stdout, in the order asked.
// process.stdout.write on a pipe is asynchronous but keeps the order of the writes.
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  let reply;
  if (message.cmd === "hello") {
    reply = HELLO;
  } else if (message.cmd === "run") {
    try {
      reply = { seq: message.seq, ...run(message.case) };
    } catch (error) {
      reply = { seq: message.seq, errored: { message: String(error && error.stack) } };
    }
  } else {
    lines.close(); // "stop": no reply; Node exits with status 0 once stdout is flushed
    return;
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
