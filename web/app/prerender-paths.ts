/** Every path that gets its own prerendered HTML file. */
export function prerenderPaths(): string[] {
  return ['/', '/home'];
}
