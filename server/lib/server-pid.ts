// The embedded database (PGlite) opens its data folder from ONE process at a time. The server notes its
// process id in DATA_DIR/server.pid while it runs, so that a command-line tool (npm run admin) can tell
// "the server holds the database" instead of hanging or printing nothing.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SERVER_PID_FILE = 'server.pid';

export function writeServerPid(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, SERVER_PID_FILE);
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
    } catch {
      // already gone
    }
  };
}

/** The pid of a live server on this data folder, or null (no file, or its process is gone). */
export function liveServerPid(dataDir: string): number | null {
  const file = join(dataDir, SERVER_PID_FILE);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive but another user's; ESRCH: gone (a crash left the file).
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}
