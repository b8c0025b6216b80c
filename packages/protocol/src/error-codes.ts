import type { PlayErrorCode } from '@oanquan/rules';

/**
 * Stable error codes: the server sends them, the client translates them.
 * Never rename one; add new ones instead. An illegal move is rejected with
 * the rules' own code (ERR_EMPTY_SQUARE, …).
 */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  Unauthorized: 'UNAUTHORIZED',
  NotFound: 'NOT_FOUND',
  RoomNotFound: 'ROOM_NOT_FOUND',
  MatchNotFound: 'MATCH_NOT_FOUND',
  NotAPlayer: 'NOT_A_PLAYER',
  NotInOpener: 'NOT_IN_OPENER',
  AlreadyChosen: 'ALREADY_CHOSEN',
  NotInPlay: 'NOT_IN_PLAY',
  NotYourTurn: 'NOT_YOUR_TURN',
  StaleVersion: 'STALE_VERSION',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  RateLimited: 'RATE_LIMITED',
  /** A socket handshake past the open connections allowed per player or per address. */
  TooManyConnections: 'TOO_MANY_CONNECTIONS',
  /** abort after the first move, claim while the opponent is present, … */
  NotAllowedNow: 'NOT_ALLOWED_NOW',
  TimeOut: 'TIME_OUT',
  /** The server is at its limit of work in progress and refused this without doing anything: send it again shortly. */
  Busy: 'BUSY',
  /** A store the server needs (the database) cannot be reached for now; nothing was changed, the same request may be sent again. */
  Unavailable: 'UNAVAILABLE',
  /** Rated play, changing a password: only for a kept account, not a guest. */
  AccountRequired: 'ACCOUNT_REQUIRED',
  /** Keeping an account for a player who already has one. */
  AlreadyAnAccount: 'ALREADY_AN_ACCOUNT',
  /** The username is someone else's (compared without case, and in its compatibility form: fullwidth or bold letters are the plain ones). */
  UsernameTaken: 'USERNAME_TAKEN',
  /** The username looks like someone else's (Unicode's confusable skeleton: Cyrillic а for Latin a, rn for m, 0 for O). */
  UsernameLookalike: 'USERNAME_LOOKALIKE',
  /** A username mixes Latin, Cyrillic and Greek letters, the scripts that pass for each other. */
  UsernameMixedScripts: 'USERNAME_MIXED_SCRIPTS',
  /** A name (username or display name) holds an invisible character, a space other than the plain one, or would show blank. */
  NameInvisible: 'NAME_INVISIBLE',
  /** A name stacks more combining marks on one letter than any script needs, repeats one, or puts one on nothing. */
  NameTooManyMarks: 'NAME_TOO_MANY_MARKS',
  /** A name has letters of a script in limited or historic use (Cherokee, runes…), whose letters pass for Latin ones unnoticed. */
  NameUncommonScript: 'NAME_UNCOMMON_SCRIPT',
  /** A display name looks like (or is) another player's username, by the same skeleton that keeps usernames apart. */
  NameLooksLikeUsername: 'NAME_LOOKS_LIKE_USERNAME',
  /** A wrong username or password; which of the two is never said. */
  BadCredentials: 'BAD_CREDENTIALS',
  /** A state-changing request or a socket handshake sent by another site. */
  CrossSite: 'CROSS_SITE',
  /** Analysis asked of a match that has not ended. */
  MatchNotEnded: 'MATCH_NOT_ENDED',
  /** No arena has this code. */
  ArenaNotFound: 'ARENA_NOT_FOUND',
  /** Joining an arena whose time is up. */
  ArenaOver: 'ARENA_OVER',
  /** An account already has as many private arenas not yet finished as it may. */
  TooManyArenas: 'TOO_MANY_ARENAS',
  /** The analysis queue is full (for everyone, or this player already waits on enough); ask again later. */
  AnalysisBusy: 'ANALYSIS_BUSY',
  /** An event about a room the socket has not joined (a quick phrase from outside the room). */
  NotInRoom: 'NOT_IN_ROOM',
  /** Quick phrases past the per-person rate (packages/protocol phraseRate), or past the room's budget for its players or its spectators; the phrase was not sent. */
  TooManyPhrases: 'TOO_MANY_PHRASES',
  /** This player, or this address, already has as many games against the computer running as it may; finish one first. */
  TooManyBotGames: 'TOO_MANY_BOT_GAMES',
  /** The challenge was taken, cancelled, declined or lapsed, or never was; or it is someone else's to answer. */
  ChallengeGone: 'CHALLENGE_GONE',
  /** This person has as many challenges out as they may (or their address has); cancel one first. */
  TooManyChallenges: 'TOO_MANY_CHALLENGES',
  /** One of the two blocks the other: no challenge passes between them. */
  Blocked: 'BLOCKED',
  /** The target takes challenges only from accounts, from people they follow, or from nobody (their `challengesFrom` setting), and the sender is not one of those. */
  NotAcceptingChallenges: 'NOT_ACCEPTING_CHALLENGES',
  /** The target already has as many challenges waiting as they take at once (in all, from this address, or from this sender); try again once they answer. */
  ChallengesWaiting: 'CHALLENGES_WAITING',
  /** The caller follows as many players as they may; unfollow one first. */
  TooManyFollows: 'TOO_MANY_FOLLOWS',
  /** No puzzle has this id, or there is no puzzle yet (none generated, none mined). */
  PuzzleNotFound: 'PUZZLE_NOT_FOUND',
  /** Challenging oneself, or the computer (play it from the home page). */
  NotChallengeable: 'NOT_CHALLENGEABLE',
  /** Closing an account while one of its games is in play (opener or moves): finish or resign it first. */
  GameInProgress: 'GAME_IN_PROGRESS',
  /** The player's account was closed: their profile is gone, their name reserved, their games kept under "deleted player". */
  AccountClosed: 'ACCOUNT_CLOSED',
  /** A display name that is the name closed accounts are shown under, so that nobody passes for one. */
  NameReserved: 'NAME_RESERVED',
  Internal: 'INTERNAL',
} as const;

/**
 * Codes of the search engine (@oanquan/engine's EngineError): a position
 * that is not one, or a search that outlived its time limit.
 */
export const EngineErrorCode = {
  BadPosition: 'ERR_BAD_POSITION',
  Timeout: 'ERR_ENGINE_TIMEOUT',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | (typeof EngineErrorCode)[keyof typeof EngineErrorCode] | PlayErrorCode;

/**
 * Refusals that say nothing about the request itself, only about the server's
 * state at that moment: nothing has changed, and a client may send the very
 * same request again after a short wait (a move with the same moveId, which
 * the server applies at most once).
 */
export const RETRYABLE_CODES: ReadonlySet<string> = new Set<string>([ErrorCode.Busy, ErrorCode.Unavailable]);

export function isRetryable(code: string): boolean {
  return RETRYABLE_CODES.has(code);
}

/** The body of every failed REST answer and of every rejected socket acknowledgement. */
export interface ErrorBody {
  ok: false;
  code: ErrorCode;
  message: string;
}
