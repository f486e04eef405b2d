import { type ComponentType, lazy, type LazyExoticComponent, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';

// The name-authentication and agreement routes serve two screens: with a signing room's query (partyId) the
// room's onboarding, otherwise the person-opening screen of the workspace.
const RoomOnboarding = lazy(() => import('@/features/signing-room/room-onboarding-page.tsx'));
const RealName = lazy(() => import('@/features/person/real-name-page.tsx'));
const Agreement = lazy(() => import('@/features/person/agreement-page.tsx'));

function switchTo(Other: LazyExoticComponent<ComponentType>) {
  return function OnboardingSwitch() {
    const [search] = useSearchParams();
    const Page = search.get('partyId') ? RoomOnboarding : Other;
    return (
      <Suspense fallback={null}>
        <Page />
      </Suspense>
    );
  };
}

export const NameAuthenticationRoute = switchTo(RealName);
export const UserAgreementRoute = switchTo(Agreement);
