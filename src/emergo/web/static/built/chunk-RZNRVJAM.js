// Built from static/page/ and static/board/ by tools/web-check/build.mjs: do not edit.
// ../../src/emergo/web/static/page/format.js
var title = (color) => color[0].toUpperCase() + color.slice(1);
function statusText(data) {
  if (data.outcome) return `Game over: ${data.outcome.result}, ${data.outcome.reason}`;
  const who = title(data.turn);
  if (data.phase === "capture") {
    const best = data.moves[0] ? data.moves[0].captured || 0 : 0;
    const tied = data.moves.length > 1 ? `; ${data.moves.length} routes tie: choose one landing by landing` : "";
    return `${who} must capture ${best} ${best === 1 ? "man" : "men"} (R8, R11): only the capturing pieces can be chosen${tied}`;
  }
  if (data.phase === "enter") {
    const attacked = data.attacked ? " (under attack: any vacant square, R15)" : "";
    return `${who} to enter${data.shadow ? ` a shadowpiece of ${data.entrySize}` : " a man"}: ${data.moves.length} squares may be entered${attacked}`;
  }
  return `${who} to step a piece (R17)`;
}
function moveNumber(ply, firstTurn) {
  const slot = ply - 1 + (firstTurn === "white" ? 0 : 1);
  return `${Math.floor(slot / 2) + 1}${slot % 2 ? "..." : "."}`;
}
var whiteMoves = (ply, firstTurn) => (ply - 1 + (firstTurn === "white" ? 0 : 1)) % 2 === 0;
function clockText(seconds) {
  const t = Math.max(0, seconds);
  if (t < 10) return `0:0${t.toFixed(1)}`;
  const whole = Math.ceil(t);
  if (whole >= 86400) return `${Math.floor(whole / 86400)}d ${Math.floor(whole % 86400 / 3600)}h`;
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole % 3600 / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
function otherTurn(position) {
  const words = position.split(" ");
  const k = words[0] === "w" || words[0] === "b" ? 0 : 1;
  if (words[k] !== "w" && words[k] !== "b") return null;
  words[k] = words[k] === "w" ? "b" : "w";
  return words.join(" ");
}

export {
  title,
  statusText,
  moveNumber,
  whiteMoves,
  clockText,
  otherTurn
};
