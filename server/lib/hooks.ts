/**
 * Extension points between modules, so that dependencies point one way (server/README.md, "Layers").
 * A lower module declares a hook in its own code and exports it from its index.ts; a higher module
 * listens to it in its `register(app, deps)`. The lower module then calls `emit` (an event: "flow
 * completed") or `collect` (a question every listener answers: "facts for the login info") without
 * importing the modules that listen.
 *
 * Listeners live in the `Hooks` of one app's deps (never in module-level state), so every app a test
 * builds has its own. A listener's failure is the caller's failure: nothing is swallowed here.
 */
type Hook<E, R = void> = {
  readonly name: string;
  /** Type carriers only; never set. */
  readonly _event?: E;
  readonly _result?: R;
};

export function defineHook<E, R = void>(name: string): Hook<E, R> {
  return { name };
}

type Listener = (event: never) => unknown;

export class Hooks {
  readonly #listeners = new Map<Hook<unknown, unknown>, Listener[]>();

  /** Adds a listener; listeners run in the order they were added (the modules' registration order). */
  on<E, R>(hook: Hook<E, R>, listener: (event: E) => R | Promise<R>): void {
    const list = this.#listeners.get(hook as Hook<unknown, unknown>) ?? [];
    list.push(listener as Listener);
    this.#listeners.set(hook as Hook<unknown, unknown>, list);
  }

  /** Runs every listener in turn and waits for each; the first failure stops and is thrown. */
  async emit<E>(hook: Hook<E, void>, event: E): Promise<void> {
    for (const listener of this.#listeners.get(hook as Hook<unknown, unknown>) ?? []) {
      await (listener as (e: E) => unknown)(event);
    }
  }

  /** Asks every listener and returns their answers in listener order. */
  async collect<E, R>(hook: Hook<E, R>, event: E): Promise<R[]> {
    const answers: R[] = [];
    for (const listener of this.#listeners.get(hook as Hook<unknown, unknown>) ?? []) {
      answers.push(await (listener as (e: E) => R | Promise<R>)(event));
    }
    return answers;
  }

  /** How many listeners a hook has (a module may require one, e.g. a store for a fact it cannot compute). */
  count(hook: Hook<unknown, unknown>): number {
    return this.#listeners.get(hook)?.length ?? 0;
  }
}
