import { readFileSync } from 'node:fs';

// Reading provider secrets from the environment: a value, or a file named by NAME_FILE (keys and
// certificates are PEM files on most servers). A secret is never logged or echoed in an error: messages
// name the variable only.

export type Env = Record<string, string | undefined>;

export const envText = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

/** NAME, else the contents of the file NAME_FILE; `issues` gets a line naming the variable on failure. */
export function envSecret(env: Env, name: string, issues: string[]): string | undefined {
  const direct = envText(env, name);
  if (direct) return direct.replace(/\\n/g, '\n');
  const file = envText(env, `${name}_FILE`);
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    issues.push(`${name}_FILE: cannot read ${file}`);
    return undefined;
  }
}

/** An http(s) base address without trailing slash; `issues` names the variable when it is not one. */
export function envEndpoint(env: Env, name: string, fallback: string, issues: string[]): string {
  const v = envText(env, name) ?? fallback;
  if (!/^https?:\/\/[^\s/]+/.test(v)) issues.push(`${name}: must be an http:// or https:// address`);
  return v.replace(/\/+$/, '');
}

/** Each of `names` that is missing, as a configuration issue that says why it is needed. */
export function requireAll(values: Record<string, string | undefined>, why: string, issues: string[]): void {
  for (const [name, v] of Object.entries(values)) if (!v) issues.push(`${name}: required with ${why}`);
}
