import { describe, expect, it } from 'vitest';
import { formatDn, parseDn, readableDn } from '@/lib/dn.ts';

// what the server stores for a company certificate (@peculiar/x509's RFC 4514 text)
const COMPANY = 'C=CN, O=某某\\, 科技有限公司, CN=张三, 2.5.4.5=3f9a0b1c';

describe('distinguished names people can read (issue 11 edge 3)', () => {
  it('splits RFC 4514 text with escapes and names OIDs', () => {
    expect(parseDn(COMPANY)).toEqual([
      { type: 'C', value: 'CN' },
      { type: 'O', value: '某某, 科技有限公司' },
      { type: 'CN', value: '张三' },
      { type: 'SERIALNUMBER', value: '3f9a0b1c' },
    ]);
    expect(parseDn('serialNumber=ab+CN=Li Lei')).toEqual([
      { type: 'SERIALNUMBER', value: 'ab' },
      { type: 'CN', value: 'Li Lei' },
    ]);
    expect(parseDn('CN=\\E5\\BC\\A0\\E4\\B8\\89, OU="a, b"')).toEqual([
      { type: 'CN', value: '张三' },
      { type: 'OU', value: 'a, b' },
    ]);
    // #hex: the DER of a PrintableString "AB12"
    expect(parseDn('2.5.4.5=#130441423132')).toEqual([{ type: 'SERIALNUMBER', value: 'AB12' }]);
  });

  it('labels each part in both languages, name first and country last, never an OID', () => {
    expect(formatDn(COMPANY, 'en-US')).toBe(
      'Name: 张三; Organisation: 某某, 科技有限公司; Subject serial number: 3f9a0b1c; Country: CN',
    );
    expect(formatDn(COMPANY, 'zh-CN')).toBe(
      '名称：张三；组织：某某, 科技有限公司；主体序列号：3f9a0b1c；国家：CN',
    );
    for (const locale of ['en-US', 'zh-CN'] as const) {
      expect(formatDn(COMPANY, locale)).not.toMatch(/2\.5\.4|\bO=|CN=/);
    }
    expect(readableDn('张三, 某公司', 'en-US')).toEqual([{ label: '', value: '张三, 某公司' }]);
  });
});
