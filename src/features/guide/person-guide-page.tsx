import { GuideSteps, PERSON_STEPS } from './guide-steps.tsx';

/** /pc/guide/person */
export default function PersonGuidePage() {
  return <GuideSteps title="personTitle" intro="personIntro" steps={PERSON_STEPS} />;
}
