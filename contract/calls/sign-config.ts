import { z } from 'zod';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/sign-config.ts';
import { FLOW_LIMITS, zApplies } from './flow.ts';
import { bi } from '../bilingual.ts';

// Signing configurations (/manage/signConfig): reusable workflows. A configuration is a list of steps run in
// order; the parties of one step sign in parallel. Each party is a ROLE (甲方, 乙方, ...): whether a person or a
// company fills it, and what it applies (company seal of a chosen type, legal-person seal, person signature,
// date, cross-page seal). Concrete people and companies are chosen only when a contract is launched. A
// configuration belongs to the account that made it: a person, or a company (its administrators and operators).

/** A role key: short, stable id of a role inside its configuration or template (letters, digits, - and _). */
export const zRoleKey = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9_-]{1,24}$/,
    bi('a role key is 1-24 letters, digits, - or _', '角色标识为 1–24 位字母、数字、- 或 _'),
  );

export const zRoleKind = z.enum(['person', 'company']);
export type RoleKind = z.infer<typeof zRoleKind>;

export const zConfigParty = z.object({
  key: zRoleKey,
  /** The role's name as the contract calls it, e.g. 甲方 / Party A. */
  name: z.string().trim().min(1, bi('enter the role name', '请输入角色名称')).max(32),
  kind: zRoleKind,
  applies: zApplies,
});
export type ConfigParty = z.infer<typeof zConfigParty>;

export const zConfigStep = z.object({
  parties: z
    .array(zConfigParty)
    .min(1, bi('a step needs a party', '每个步骤至少需要一个签署方'))
    .max(FLOW_LIMITS.partiesPerStep),
});

export const zSignConfig = z.object({
  configId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  steps: z.array(zConfigStep),
  /** Templates of the account that took their roles from this configuration. */
  templateCount: z.number().int(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SignConfig = z.infer<typeof zSignConfig>;

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

export const saveSignConfig = defineCall({
  call: P.saveSignConfig,
  auth: true,
  summary:
    'Creates (no configId) or replaces (configId) a signing configuration of the caller account: ordered steps, ' +
    'parallel parties per step, per party its role name, person or company, and what it applies. Role keys and ' +
    'names are unique within the configuration; a company role must apply a company seal or the legal-person ' +
    'seal; a person role applies a person signature. Another account’s configuration: 1101.',
  request: zBase.extend({
    configId: zId.optional(),
    name: z.string().trim().min(1, bi('enter a name', '请输入名称')).max(50),
    description: z.string().trim().max(200).optional(),
    steps: z.array(zConfigStep).min(1, bi('add a step', '请添加步骤')).max(FLOW_LIMITS.steps),
  }),
  response: zSignConfig,
});

export const getSignConfig = defineCall({
  call: P.getSignConfig,
  auth: true,
  summary: 'One signing configuration of the caller account (another account’s: 1101 NotFound).',
  request: zBase.extend({ configId: zId }),
  response: zSignConfig,
});

export const listSignConfigs = defineCall({
  call: P.listSignConfigs,
  auth: true,
  summary:
    'Signing configurations of the caller account, newest change first; `keyword` matches the name; pagination ' +
    'pageNum/pageSize (default 10).',
  request: zBase.extend(zPageRequest.shape).extend({ keyword: z.string().trim().max(50).optional() }),
  response: zPage(zSignConfig),
});

export const deleteSignConfig = defineCall({
  call: P.deleteSignConfig,
  auth: true,
  summary:
    'Deletes a signing configuration of the caller account. Templates that took their roles from it keep those ' +
    'roles (a template copies them when saved) and lose only the reference.',
  request: zBase.extend({ configId: zId }),
  response: z.null(),
});

export const signConfigCalls = [saveSignConfig, getSignConfig, listSignConfigs, deleteSignConfig] as const;
