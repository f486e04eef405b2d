/**
 * Objects a module keeps for one app: the started PKI, the session caches, the chosen identity or company
 * check provider. They live on that app's `AppDeps.perApp` (built once with the deps, like `hooks`), never
 * in module-level variables or WeakMaps, so every app a test builds has its own and a reader of deps.ts
 * sees that such state exists. The module that owns an object declares its slot and makes it on first use.
 */
type PerAppSlot<T> = {
  readonly name: string;
  /** Type carrier only; never set. */
  readonly _type?: T;
};

export function definePerAppSlot<T>(name: string): PerAppSlot<T> {
  return { name };
}

export class PerApp {
  readonly #values = new Map<PerAppSlot<unknown>, unknown>();

  /** The app's object in `slot`, made by `make` the first time it is asked for. */
  get<T>(slot: PerAppSlot<T>, make: () => T): T {
    const key = slot as PerAppSlot<unknown>;
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = make();
    this.#values.set(key, value);
    return value;
  }

  /** Replaces the object (tests swap a provider). */
  set<T>(slot: PerAppSlot<T>, value: T): void {
    this.#values.set(slot as PerAppSlot<unknown>, value);
  }

  /** Forgets the object, so the next `get` makes a new one (a failed start is not kept). */
  delete(slot: PerAppSlot<unknown>): void {
    this.#values.delete(slot);
  }
}
