import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PhotoViewer } from '@/components/photo-viewer.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';

describe('PhotoViewer', () => {
  it('shows thumbnails and opens the large view on click', async () => {
    useI18nStore.getState().setLocale('en-US');
    render(
      <PhotoViewer
        photos={[
          { src: 'data:image/png;base64,AAAA', alt: 'Official seal' },
          { src: 'data:image/png;base64,BBBB', alt: 'Contract seal' },
        ]}
      />,
    );
    expect(screen.getAllByRole('img')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'View image: Contract seal' }));
    await waitFor(() => expect(document.querySelector('.PhotoView-Portal')).not.toBeNull());
  });
});
