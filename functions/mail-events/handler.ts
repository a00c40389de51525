// Placeholder so the stack can name this entry before the real handler lands: replaced by archive-core.
export async function handler(): Promise<never> {
  throw new Error('replaced by archive-core');
}
