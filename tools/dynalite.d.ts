// The part of dynalite 4's API the local archive uses (the package ships no types).
declare module 'dynalite' {
  import type { Server } from 'node:http';
  interface DynaliteOptions {
    /** LevelDB folder; in memory when absent. */
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}
