import Button from 'antd/es/button';
import { useState } from 'react';
import { ApiError } from '@/api/http.ts';
import { allPages, exportSheet, type SheetColumn } from '@/lib/export-sheet.ts';
import { notify } from '@/lib/notify.ts';

/**
 * "Export" on a paged list: every row the current filter finds (not just the page shown) into `<fileName>.xlsx`
 * through the one export helper. Disabled while the list is empty.
 */
export function ExportAllButton<Row>({
  label,
  fileName,
  columns,
  fetchPage,
  isEmpty,
}: {
  label: string;
  fileName: string;
  columns: SheetColumn<Row>[];
  fetchPage: (pageNum: number, pageSize: number) => Promise<{ list: Row[]; total: number }>;
  isEmpty: boolean;
}) {
  const [isBusy, setIsBusy] = useState(false);
  return (
    <Button
      disabled={isEmpty}
      loading={isBusy}
      onClick={async () => {
        setIsBusy(true);
        try {
          await exportSheet(fileName, columns, await allPages(fetchPage), fileName);
        } catch (e) {
          if (!(e instanceof ApiError && e.handled))
            notify.error(e instanceof Error ? e.message : String(e), 2000);
        } finally {
          setIsBusy(false);
        }
      }}
    >
      {label}
    </Button>
  );
}
