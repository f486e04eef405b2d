import type { Actor } from '../../lib/actor.ts';
import type { Applies } from '#contract/calls/flow.ts';
import { appliesCompanySeal } from '#contract/rules/seal-needs.ts';
import type { SignConfig, listSignConfigs, saveSignConfig } from '#contract/calls/sign-config.ts';
import { Code } from '#contract/codes.ts';
import type { CallResponse } from '#contract/envelope.ts';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Account } from '../../lib/account.ts';
import { accountOf } from '../document/index.ts';
import { dateOf, jsonOf } from '../../db/sql-helpers.ts';
import { usersByIds } from '../session/index.ts';
import { signConfigDeleted, templatesUsingConfigs } from './hooks.ts';
import * as q from './queries.ts';
import { S } from './texts.ts';

/** A stored signing configuration: its name, its parties' roles and what each signs with. */
export type SignConfigRecord = q.SignConfigRecord;

type SaveInput = z.output<(typeof saveSignConfig)['request']>;
type Steps = SaveInput['steps'];

/**
 * What a role applies, made consistent with its kind: a person role signs with a person signature and never
 * applies company seals; a company role must apply a company seal of some type or the legal-person seal
 * (the flow engine refuses a company party that applies nothing, so it is refused here, at design time).
 */
export function normaliseApplies(
  kind: 'person' | 'company',
  applies: Partial<Applies>,
  name: string,
): Applies {
  const out: Applies = {
    companySealType: applies.companySealType ?? null,
    anyCompanySeal: applies.anyCompanySeal ?? false,
    legalPersonSeal: applies.legalPersonSeal ?? false,
    personSignature: applies.personSignature ?? false,
    date: applies.date ?? false,
    crossPageSeal: applies.crossPageSeal ?? false,
  };
  if (kind === 'person')
    return {
      ...out,
      companySealType: null,
      anyCompanySeal: false,
      legalPersonSeal: false,
      personSignature: true,
    };
  if (!appliesCompanySeal(out) && !out.legalPersonSeal)
    throw new AppError(Code.Refused, S.companyRoleNeedsSeal(name));
  return out;
}

/** Role keys and role names are unique across the whole configuration (a role signs once). */
function checkSteps(steps: Steps): Steps {
  const keys = new Set<string>();
  const names = new Set<string>();
  return steps.map((step) => ({
    parties: step.parties.map((p) => {
      if (keys.has(p.key)) throw new AppError(Code.Refused, S.roleKeyTwice(p.key));
      if (names.has(p.name)) throw new AppError(Code.Refused, S.roleNameTwice(p.name));
      keys.add(p.key);
      names.add(p.name);
      return { ...p, applies: normaliseApplies(p.kind, p.applies, p.name) };
    }),
  }));
}

/** How many live templates use each configuration (the template module tells, templatesUsingConfigs). */
async function templateCounts(deps: AppDeps, configIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (configIds.length === 0) return counts;
  for (const answer of await deps.hooks.collect(templatesUsingConfigs, { deps, configIds }))
    for (const [id, n] of answer) counts.set(id, (counts.get(id) ?? 0) + n);
  return counts;
}

/** Presents configurations with their template counts and their creators' names (session's users). */
async function presentAll(deps: AppDeps, found: q.SignConfigRecord[]): Promise<SignConfig[]> {
  const counts = await templateCounts(
    deps,
    found.map((c) => c.id),
  );
  const creators = await usersByIds(
    deps.db,
    found.map((c) => c.createdBy),
  );
  return found.map((c) => presentConfig(c, counts.get(c.id) ?? 0, creators.get(c.createdBy)?.name ?? null));
}

function presentConfig(
  row: q.SignConfigRecord,
  templateCount: number,
  createdByName: string | null,
): SignConfig {
  return {
    configId: row.id,
    name: row.name,
    description: row.description,
    steps: jsonOf<Steps>(row.steps),
    templateCount,
    createdByName,
    createdAt: dateOf(row.createdAt).toISOString(),
    updatedAt: dateOf(row.updatedAt).toISOString(),
  };
}

const notFound = () => new AppError(Code.NotFound, S.configNotFound);

/** A configuration of the caller's account (accountOf checks a company caller's membership); 1101 otherwise. */
async function configOf(deps: AppDeps, actor: Actor, id: string): Promise<q.SignConfigRecord> {
  const account = await accountOf(deps, actor);
  const row = await q.findConfig(deps.db, account, id);
  if (!row) throw notFound();
  return row;
}

/** One configuration of the caller's account, presented (getSignConfig). */
export async function detail(deps: AppDeps, actor: Actor, id: string): Promise<SignConfig> {
  const row = await configOf(deps, actor, id);
  return (await presentAll(deps, [row]))[0];
}

export async function save(deps: AppDeps, actor: Actor, input: SaveInput): Promise<SignConfig> {
  const account = await accountOf(deps, actor);
  const steps = checkSteps(input.steps);
  const now = deps.clock.now();
  const values = { name: input.name, description: input.description || null, steps, now };
  let id = input.configId;
  if (id) {
    // Scoped UPDATE: another account's id changes nothing and answers NotFound.
    if (!(await q.updateConfig(deps.db, account, id, values))) throw notFound();
  } else id = await q.insertConfig(deps.db, account, { ...values, createdBy: actor.userId });
  return (await presentAll(deps, [(await q.findConfig(deps.db, account, id))!]))[0];
}

export async function list(
  deps: AppDeps,
  actor: Actor,
  f: { pageNum: number; pageSize: number; keyword?: string },
): Promise<CallResponse<typeof listSignConfigs>> {
  const account = await accountOf(deps, actor);
  const { list: found, total } = await q.listConfigs(deps.db, account, f);
  return { list: await presentAll(deps, found), total, pageNum: f.pageNum, pageSize: f.pageSize };
}

export async function remove(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  const account = await accountOf(deps, actor);
  const done = await deps.db.transaction(async (tx) => {
    if (!(await q.deleteConfig(tx, account, id, deps.clock.now()))) return false;
    await deps.hooks.emit(signConfigDeleted, { ex: tx, configId: id });
    return true;
  });
  if (!done) throw notFound();
}

/** A signing configuration of the account (a template is made from one), or undefined. */
export const findAccountConfig = (
  deps: AppDeps,
  account: Account,
  id: string,
): Promise<SignConfigRecord | undefined> => q.findConfig(deps.db, account, id);

/** The names of those of these configurations that still exist (a deleted one is left out). */
export const liveConfigNames = (deps: AppDeps, ids: string[]) => q.liveConfigNames(deps.db, ids);
