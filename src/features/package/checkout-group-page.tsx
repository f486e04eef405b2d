import { CheckoutView } from './checkout-view.tsx';

/** /buy/checkoutGroup: payment notes of a group purchase (with its distribution). */
export default function CheckoutGroupPage() {
  return <CheckoutView isGroup />;
}
