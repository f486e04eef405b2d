import type { Text } from '../../http/texts.ts';
import { countOf } from '#contract/plural.ts';

/** Texts of the signing-configuration and template modules, in both languages. */
export const S = {
  configNotFound: { en: 'signing configuration not found', zh: '签署配置不存在' },
  templateNotFound: { en: 'template not found', zh: '模板不存在' },
  draftNotFound: { en: 'contract draft not found', zh: '合同草稿不存在' },
  roleKeyTwice: (key: string): Text => ({
    en: `the role key ${key} is used twice`,
    zh: `角色标识 ${key} 重复`,
  }),
  roleNameTwice: (name: string): Text => ({
    en: `the role name ${name} is used twice`,
    zh: `角色名称 ${name} 重复`,
  }),
  companyRoleNeedsSeal: (name: string): Text => ({
    en: `the company role ${name} must apply a company seal or the legal-person seal`,
    zh: `企业角色 ${name} 须加盖企业印章或法定代表人章`,
  }),
  noRoles: { en: 'add at least one signing role', zh: '请至少添加一个签署角色' },
  stepGap: (step: number): Text => ({
    en: `step ${step} has no role: steps must follow each other without gaps`,
    zh: `第 ${step} 步没有签署角色，步骤须连续`,
  }),
  tooManyInStep: (step: number, max: number): Text => ({
    en: `step ${step} has more than ${countOf(max, 'role', 'roles')}`,
    zh: `第 ${step} 步超过 ${max} 个签署角色`,
  }),
  fieldKeyTwice: (key: string): Text => ({
    en: `the field key ${key} is used twice`,
    zh: `字段标识 ${key} 重复`,
  }),
  fieldUnknownFiller: (label: string): Text => ({
    en: `the field "${label}" is filled by a role that does not exist`,
    zh: `字段“${label}”的填写方不存在`,
  }),
  fieldBadDefault: (label: string): Text => ({
    en: `the default value of "${label}" does not fit its type`,
    zh: `字段“${label}”的默认值与类型不符`,
  }),
  boxOffPage: (what: string, page: number, pages: number): Text => ({
    en: `${what} is off its page (page ${page} of ${pages})`,
    zh: `${what} 超出页面范围（第 ${page} 页，共 ${pages} 页）`,
  }),
  positionUnknownRole: {
    en: 'a signing position belongs to a role that does not exist',
    zh: '签署位置所属的角色不存在',
  },
  positionTwice: (name: string): Text => ({
    en: `the role ${name} has more than one signing position`,
    zh: `角色 ${name} 有多个签署位置`,
  }),
  positionMissing: (name: string): Text => ({
    en: `place the signing position of the role ${name} first`,
    zh: `请先为角色 ${name} 放置签署位置`,
  }),
  needsDocument: { en: 'upload the PDF of the template', zh: '请上传模板的 PDF 文件' },
  documentLaunched: { en: 'this PDF is already in a signing flow', zh: '该文件已在签署流程中' },
  valueRequired: (label: string): Text => ({ en: `fill in "${label}"`, zh: `请填写“${label}”` }),
  valueNotNumber: (label: string): Text => ({ en: `"${label}" must be a number`, zh: `“${label}”须为数字` }),
  valueNotDate: (label: string): Text => ({
    en: `"${label}" must be a date written YYYY-MM-DD`,
    zh: `“${label}”须为日期（YYYY-MM-DD）`,
  }),
  valueNotText: (label: string): Text => ({ en: `"${label}" must be text`, zh: `“${label}”须为文字` }),
  valueNotCheckbox: (label: string): Text => ({
    en: `"${label}" must be ticked or not`,
    zh: `“${label}”须为勾选或不勾选`,
  }),
  // Template fields a role's signer fills in the room (issue 28).
  fieldRoomNeedsRole: (label: string): Text => ({
    en: `the field "${label}" is filled in the signing room: choose the role that fills it`,
    zh: `字段“${label}”在签署时填写，请选择填写的角色`,
  }),
  fieldRoomNoDefault: (label: string): Text => ({
    en: `the field "${label}" is filled in the signing room and has no default value`,
    zh: `字段“${label}”在签署时填写，不能设置默认值`,
  }),
  fieldRoomOnly: (label: string): Text => ({
    en: `the field "${label}" can only be filled in the signing room`,
    zh: `字段“${label}”只能在签署时填写`,
  }),
  fieldNeedsOptions: (label: string): Text => ({
    en: `give the field "${label}" at least two options`,
    zh: `请为字段“${label}”填写至少两个选项`,
  }),
  fieldNoOptions: (label: string): Text => ({
    en: `only a radio group or drop-down has options ("${label}")`,
    zh: `只有单选或下拉字段可以设置选项（“${label}”）`,
  }),
  valueForRoomField: (label: string): Text => ({
    en: `"${label}" is filled by the signer in the signing room, not at launch`,
    zh: `“${label}”由签署方在签署时填写，发起时不能填写`,
  }),
  valueProblem: (label: string, text: Text): Text => ({
    en: `"${label}": ${text.en}`,
    zh: `“${label}”：${text.zh}`,
  }),
  valueUnknownField: (key: string): Text => ({
    en: `the template has no field ${key}`,
    zh: `模板没有字段 ${key}`,
  }),
  assignmentMissing: (name: string): Text => ({
    en: `choose who signs as ${name}`,
    zh: `请指定 ${name} 的签署方`,
  }),
  assignmentUnknownRole: (key: string): Text => ({
    en: `the template has no role ${key}`,
    zh: `模板没有角色 ${key}`,
  }),
  assignmentTwice: (name: string): Text => ({
    en: `the role ${name} is assigned twice`,
    zh: `角色 ${name} 被重复指定`,
  }),
  assignmentKind: (name: string, kind: 'person' | 'company'): Text =>
    kind === 'person'
      ? { en: `the role ${name} is signed by a person`, zh: `角色 ${name} 须由个人签署` }
      : { en: `the role ${name} is signed by a company`, zh: `角色 ${name} 须由企业签署` },
  draftLaunched: { en: 'this draft has already been launched', zh: '该草稿已发起签署' },
} as const;
