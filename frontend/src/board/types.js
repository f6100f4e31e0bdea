// @ts-check
/**
 * board/types.js: the types of the board component's API (JSDoc only, no code). docs/board.md
 * describes them for people.
 *
 * Squares are named by their oblique names (R1) everywhere in the API; the board shows the naming
 * chosen (`names`) in coordinates and texts.
 *
 * @typedef {"white"|"black"} Color
 * @typedef {{name: string, checker: string, u: number, v: number, file: number, rank: number}} SquareInfo
 * @typedef {{owner: Color, caps: number, prisoners: number}} Piece
 * @typedef {{kind: "enter"|"step"|"capture", path: string[], text: string, checker: string,
 *   captured?: number, entered?: number}} MoveInfo
 * @typedef {{oblique: string, checker: string}} Reason
 * @typedef {"green"|"red"|"blue"|"yellow"|"paleBlue"|"paleGreen"} Brush
 * @typedef {{orig: string, dest?: string, path?: string[], brush: Brush, label?: string}} Shape
 *   a circle (`orig` alone), an arrow (`orig` to `dest`) or a route arrow through `path`
 *
 * @typedef {{
 *   moves: MoveInfo[],
 *   forbidden?: Record<string, Reason>,
 *   required?: string,
 * }} Movable
 *   the moves the player may make now, as routes (the server's), the vacant squares he may not
 *   enter and why, and what a compulsory capture demands (R8, R11), for refusals
 *
 * @typedef {{
 *   enabled: boolean,
 *   dests: MoveInfo[],
 *   current: MoveInfo|null,
 * }} Premovable
 *   moves the player may queue while the opponent is to move (the page gives them; the board
 *   checks none), and the one queued
 *
 * @typedef {{
 *   enabled: boolean,
 *   shapes: Shape[],
 *   autoShapes: Shape[],
 *   eraseOnClick: boolean,
 * }} Drawable
 *   user shapes (drawn with the right button) and the page's own (an engine's best move)
 *
 * @typedef {{
 *   move?: (move: MoveInfo, meta: {premove: boolean}) => void,
 *   select?: (square: string|null) => void,
 *   refused?: (square: string, reason: string, hint?: boolean) => void,
 *   premove?: (move: MoveInfo) => void,
 *   premoveCancel?: (move: MoveInfo) => void,
 *   shapes?: (shapes: Shape[]) => void,
 *   square?: (square: string) => boolean,
 * }} BoardEvents
 *   `square` sees every click first and may consume it (return true): a position editor
 *
 * @typedef {{
 *   view: "diamond"|"checker",
 *   flipped: boolean,
 *   coordinates: boolean,
 *   names: "oblique"|"checker",
 *   size: number,
 *   shape: "diamond"|"hexagon",
 *   squares: SquareInfo[],
 *   pieces: Record<string, Piece>,
 *   lastMove: MoveInfo|null,
 *   movable: Movable|null,
 *   premovable: Premovable,
 *   drawable: Drawable,
 *   viewOnly: boolean,
 *   animation: {enabled: boolean, jump: number},
 *   events: BoardEvents,
 * }} BoardState
 *
 * @typedef {Partial<Omit<BoardState, "premovable"|"drawable"|"animation">> & {
 *   premovable?: Partial<Premovable>,
 *   drawable?: Partial<Drawable>,
 *   animation?: Partial<{enabled: boolean, jump: number}>,
 *   animate?: boolean,
 * }} BoardConfig
 *   what `Board(element, config)` and `board.set(config)` take: any part of the state;
 *   `animate: true` glides the pieces of `lastMove` from the previous position
 *
 * @typedef {{
 *   set: (config: BoardConfig) => void,
 *   state: Readonly<BoardState>,
 *   select: (square: string|null) => void,
 *   click: (square: string) => void,
 *   cancelMove: () => void,
 *   playPremove: () => boolean,
 *   cancelPremove: () => void,
 *   setShapes: (shapes: Shape[]) => void,
 *   setAutoShapes: (shapes: Shape[]) => void,
 *   point: (square: string) => {x: number, y: number},
 *   redraw: () => void,
 *   destroy: () => void,
 * }} BoardApi
 */

export {};
