// Unit test of the socket's target: the CSRF token of a signed-in page's socket never in its URL.
import {test} from "node:test";
import assert from "node:assert/strict";
import {socketTarget} from "../src/page/socket.js";

test("a socket's CSRF token goes in a subprotocol, never in the URL", () => {
  assert.deepEqual(socketTarget("/ws/lobby"), {path: "/ws/lobby", protocols: undefined});
  assert.deepEqual(socketTarget("/ws/game/ab12?csrf=T0k-en_"), {path: "/ws/game/ab12", protocols: ["emergo", "csrf.T0k-en_"]});
  assert.deepEqual(socketTarget("/ws/x?a=1&csrf=t&b=2"), {path: "/ws/x?a=1&b=2", protocols: ["emergo", "csrf.t"]});
  assert.deepEqual(socketTarget("/ws/x?a=1"), {path: "/ws/x?a=1", protocols: undefined});
  assert.deepEqual(socketTarget("/ws/x?csrf="), {path: "/ws/x?csrf=", protocols: undefined});
});
