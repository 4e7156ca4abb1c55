/** Where `validate` writes what it found right (`ok  <file>`) and its warnings: standard output, or a buffer. */
export interface TextOut {
  write(text: string): unknown;
}
