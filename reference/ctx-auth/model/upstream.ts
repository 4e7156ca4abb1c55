/**
 * The third-party session behind a delegating server's own tokens (C Auth 9: "creates its own
 * access token bound to the third-party session"): the third party's access token and, when it
 * gave one, its refresh token. One object is shared by the code and every token issued from it,
 * so a renewal at the third party holds for all of them.
 */
export interface Upstream {
  accessToken: string;
  refreshToken?: string;
}
