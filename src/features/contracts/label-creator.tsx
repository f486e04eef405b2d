import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Popover from 'antd/es/popover';
import { useState } from 'react';
import type { CentreFolder, CentreTag, CentreView } from '@/api/centre.ts';
import { showApiError } from '@/api/http.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { texts } from './texts.ts';

/** The filter bar's choices (getCentreLabels). */
export type Labels = {
  tags: CentreTag[];
  folders: CentreFolder[];
  views: CentreView[];
  senders: { userId: string; name: string }[];
  templates: { templateId: string; name: string }[];
};

const COLOURS = ['#d4380d', '#d48806', '#389e0d', '#08979c', '#1d39c4', '#531dab', '#595959'];

/** A button opening a small form: a name (and, for a tag, a colour), saved by `onSave`. */
export function LabelCreator({
  label,
  testId,
  withColour = false,
  onSave,
}: {
  label: string;
  testId: string;
  withColour?: boolean;
  onSave: (name: string, colour: string) => Promise<unknown>;
}) {
  const tt = useTexts(texts);
  const [isOpen, setIsOpen] = useState(false);
  const [name, setName] = useState('');
  const [colour, setColour] = useState(COLOURS[0]);
  const [isBusy, setIsBusy] = useState(false);
  const save = async () => {
    if (!name.trim()) return;
    setIsBusy(true);
    try {
      await onSave(name.trim(), colour);
      setName('');
      setIsOpen(false);
    } catch (e) {
      showApiError(e);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Popover
      open={isOpen}
      onOpenChange={setIsOpen}
      trigger="click"
      content={
        <div style={{ display: 'flex', flexDirection: 'column', gap: 8, maxWidth: 260 }}>
          <Input
            data-testid={`${testId}-name`}
            placeholder={tt('name')}
            maxLength={30}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onPressEnter={save}
          />
          {withColour && (
            <fieldset
              aria-label={tt('colour')}
              style={{ display: 'flex', gap: 6, border: 0, padding: 0, margin: 0 }}
            >
              {COLOURS.map((c) => (
                <button
                  key={c}
                  type="button"
                  aria-pressed={c === colour}
                  aria-label={c}
                  onClick={() => setColour(c)}
                  style={{
                    width: 22,
                    height: 22,
                    borderRadius: 11,
                    background: c,
                    border: c === colour ? '2px solid #000' : '2px solid transparent',
                    cursor: 'pointer',
                  }}
                />
              ))}
            </fieldset>
          )}
          <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
            <Button size="small" onClick={() => setIsOpen(false)}>
              {tt('cancel')}
            </Button>
            <Button
              size="small"
              type="primary"
              loading={isBusy}
              data-testid={`${testId}-save`}
              onClick={save}
            >
              {tt('create')}
            </Button>
          </div>
        </div>
      }
    >
      <Button data-testid={testId}>{label}</Button>
    </Popover>
  );
}
