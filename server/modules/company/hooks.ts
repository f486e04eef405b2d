import type { AppDeps } from '../../deps.ts';
import { defineHook } from '../../lib/hooks.ts';

// What the company module tells the modules above it, without importing them (lib/hooks.ts, server/README.md).

/**
 * "Put this notice in the person's message list (/message)": the flow module, which keeps that list, answers.
 * `phone` is the recipient's (the list is per phone, so an unregistered phone finds it after registering);
 * the notice is the person's own, not a company's. Title and text carry both languages, as the list's others.
 */
export const companyNotice = defineHook<{
  deps: AppDeps;
  phone: string;
  kind: 'company_invitation';
  title: string;
  text: string;
  /** SPA path (hash router) the message opens. */
  link: string;
}>('company.notice');
