import 'react-photo-view/dist/react-photo-view.css';
import { PhotoProvider, PhotoView } from 'react-photo-view';
import { useT } from '@/i18n/i18n-store.ts';

type PhotoItem = { src: string; alt: string; key?: string };

/**
 * Thumbnails that open a full-screen viewer (zoom, rotate, swipe between images) on click.
 * The one wrapper over react-photo-view: screens showing seals, ID photos or page images use it.
 */
export function PhotoViewer({ photos, thumbWidth = 120 }: { photos: PhotoItem[]; thumbWidth?: number }) {
  const t = useT();
  return (
    <PhotoProvider>
      <div className="photo-viewer" style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        {photos.map((photo) => (
          <PhotoView key={photo.key ?? photo.src} src={photo.src}>
            <button
              type="button"
              aria-label={`${t('photo.open')}: ${photo.alt}`}
              style={{ padding: 0, border: 0, background: 'none', cursor: 'zoom-in' }}
            >
              <img src={photo.src} alt={photo.alt} width={thumbWidth} />
            </button>
          </PhotoView>
        ))}
      </div>
    </PhotoProvider>
  );
}
