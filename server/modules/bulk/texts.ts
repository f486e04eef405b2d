import { countOf } from '#contract/plural.ts';
import type { Text } from '../../lib/text.ts';

// Texts of bulk sending, both languages (server/http/texts.ts).
export const B = {
  bulkNotFound: { en: 'no such bulk send', zh: '批量发起记录不存在' },
  fileRequired: {
    en: 'choose a spreadsheet (.xlsx or .csv) to upload',
    zh: '请选择要上传的表格（.xlsx 或 .csv）',
  },
  fileTooLarge: (mb: number): Text => ({
    en: `the spreadsheet is larger than ${mb} MB: split it into smaller files`,
    zh: `表格超过 ${mb} MB，请拆分成多个文件`,
  }),
  notASheet: {
    en: 'this file is not a spreadsheet we can read: upload the .xlsx made for this template, or a .csv',
    zh: '无法读取该文件：请上传为本模板生成的 .xlsx 表格，或 .csv 文件',
  },
  unreadable: {
    en: 'the spreadsheet could not be read (damaged or crafted file)',
    zh: '表格无法读取（文件损坏或格式异常）',
  },
  tooSlow: (seconds: number): Text => ({
    en: `reading the spreadsheet took longer than ${seconds} s: simplify or split the file`,
    zh: `读取表格超过 ${seconds} 秒，请精简或拆分文件`,
  }),
  tooManyRows: (n: number): Text => ({
    en: `the spreadsheet has more than ${countOf(n, 'data row', 'data rows')}: split it into several files`,
    zh: `表格数据超过 ${n} 行，请拆分成多个文件`,
  }),
  tooManyColumns: (n: number): Text => ({
    en: `the spreadsheet has more than ${countOf(n, 'column', 'columns')}`,
    zh: `表格超过 ${n} 列`,
  }),
  noRows: { en: 'the spreadsheet has no data rows', zh: '表格中没有数据行' },
  columnMissing: (header: string): Text => ({
    en: `the column "${header}" is missing: download the spreadsheet made for this template`,
    zh: `缺少“${header}”列，请下载本模板的批量发起表格`,
  }),
  notLaunchable: {
    en: 'this template cannot be launched yet: give every role a signing position',
    zh: '该模板尚不能发起：请为每个角色设置签署位置',
  },
  alreadyStarted: { en: 'this bulk send has already started', zh: '该批量发起已开始' },
  hasProblems: (n: number): Text => ({
    en: `${n === 1 ? '1 row has' : `${n} rows have`} problems: fix the file, or send only the good rows`,
    zh: `有 ${n} 行存在问题：请修改表格后重新上传，或仅发起无问题的行`,
  }),
  nothingToSend: { en: 'no row can be sent', zh: '没有可以发起的行' },
  // cell and row problems
  required: { en: 'required', zh: '必填' },
  badPhone: {
    en: 'not an 11-digit mainland mobile number',
    zh: '不是 11 位中国大陆手机号码',
  },
  badName: { en: 'a name of at most 32 characters', zh: '姓名不超过 32 个字符' },
  unknownCompany: (name: string): Text => ({
    en: `no verified company is named "${name}"`,
    zh: `没有名为“${name}”的已认证企业`,
  }),
  badDate: { en: 'not a date (YYYY-MM-DD)', zh: '不是日期（YYYY-MM-DD）' },
  deadlinePast: { en: 'the deadline must be in the future', zh: '截止日期须晚于今天' },
  titleTooLong: { en: 'at most 100 characters', zh: '不超过 100 个字符' },
  duplicate: (row: number): Text => ({ en: `the same as row ${row}`, zh: `与第 ${row} 行重复` }),
  samePartyTwice: {
    en: 'the same signer fills two roles of this row',
    zh: '同一签署人在本行中担任了两个角色',
  },
  // headers and hints of the sheet
  personName: (role: string): Text => ({ en: `${role} · name`, zh: `${role}·姓名` }),
  personPhone: (role: string): Text => ({ en: `${role} · phone`, zh: `${role}·手机号` }),
  companyName: (role: string): Text => ({ en: `${role} · company`, zh: `${role}·企业名称` }),
  handlerPhone: (role: string): Text => ({ en: `${role} · handler phone`, zh: `${role}·经办人手机号` }),
  handlerName: (role: string): Text => ({ en: `${role} · handler name`, zh: `${role}·经办人姓名` }),
  title: { en: 'Title', zh: '合同标题' },
  deadline: { en: 'Deadline', zh: '截止日期' },
  hintName: { en: 'required: name', zh: '必填：姓名' },
  hintPhone: { en: 'required: 11-digit mobile', zh: '必填：11 位手机号' },
  hintCompany: { en: 'required: registered company name', zh: '必填：企业注册名称' },
  hintOptionalName: { en: 'optional: name', zh: '选填：姓名' },
  hintTitle: { en: 'optional: contract title', zh: '选填：合同标题' },
  hintDeadline: { en: 'optional: YYYY-MM-DD', zh: '选填：YYYY-MM-DD' },
  hintField: (type: string, required: boolean): Text => {
    const en =
      {
        text: 'text',
        multiline: 'text',
        number: 'number',
        date: 'YYYY-MM-DD',
        checkbox: 'yes / no',
        radio: 'one of the options',
        select: 'one of the options',
        idNumber: 'ID number',
        phone: 'mobile number',
      }[type] ?? type;
    const zh =
      {
        text: '文字',
        multiline: '文字',
        number: '数字',
        date: 'YYYY-MM-DD',
        checkbox: '是 / 否',
        radio: '选项之一',
        select: '选项之一',
        idNumber: '身份证号',
        phone: '手机号',
      }[type] ?? type;
    return { en: `${required ? 'required' : 'optional'}: ${en}`, zh: `${required ? '必填' : '选填'}：${zh}` };
  },
  // results sheet
  resultHeaders: {
    en: ['Row', 'Status', 'Title', 'Parties', 'Flow', 'Reason'],
    zh: ['行号', '状态', '合同标题', '签署方', '流程', '原因'],
  },
  rowStatus: {
    pending: { en: 'waiting', zh: '等待发起' },
    sending: { en: 'sending', zh: '发起中' },
    sent: { en: 'sent', zh: '已发起' },
    failed: { en: 'failed', zh: '发起失败' },
    skipped: { en: 'not sent (problems)', zh: '未发起（有问题）' },
  } satisfies Record<string, Text>,
  sheetName: { en: 'Contracts', zh: '批量发起' },
  resultsName: { en: 'Results', zh: '发起结果' },
} as const;
