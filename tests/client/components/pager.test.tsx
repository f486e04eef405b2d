import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pager } from '@/components/pager.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { PAGER_ACTIVE_COLOR, PRIMARY_COLOR, SUCCESS_COLOR, appTheme } from '@/lib/theme.ts';

describe('Pager (SPEC §9)', () => {
  it('pages by 10, in the order prev, pages, next, jumper, total', async () => {
    useI18nStore.getState().setLocale('en-US');
    const onChange = vi.fn();
    const { container } = render(<Pager total={35} current={1} onChange={onChange} />);
    const items = [...container.querySelectorAll('.ant-pagination > li, .pager-total')].map(
      (li) => li.className,
    );
    expect(items[0]).toContain('ant-pagination-prev');
    expect(items.filter((c) => c.includes('ant-pagination-item ')).length).toBe(4); // 35 / 10 → 4 pages
    const order = ['prev', 'item', 'next', 'options', 'pager-total'].map((part) =>
      items.findIndex((c) => c.includes(part)),
    );
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(screen.getByText('35 items in total')).toBeTruthy();
    await userEvent.click(screen.getByTitle('3'));
    expect(onChange).toHaveBeenCalledWith(3, 10);
  });

  it('marks the active page in #ec1c23; the theme is red with blue success', () => {
    render(<Pager total={35} current={2} onChange={() => {}} />);
    const css = [...document.querySelectorAll('style')].map((s) => s.textContent).join('\n');
    expect(css).toMatch(/ant-pagination-item-active[^}]*#ec1c23/i);
    expect(PAGER_ACTIVE_COLOR).toBe('#ec1c23');
    expect(PRIMARY_COLOR).toBe('#ec1c23');
    expect(appTheme.token?.colorPrimary).toBe('#ec1c23');
    expect(appTheme.token?.colorSuccess).toBe(SUCCESS_COLOR);
    expect(SUCCESS_COLOR).toMatch(/^#1677ff$/i);
  });

  it('writes the total label in Chinese too', () => {
    useI18nStore.getState().setLocale('zh-CN');
    render(<Pager total={35} current={1} onChange={() => {}} />);
    expect(screen.getByText('共 35 条')).toBeTruthy();
  });
});
