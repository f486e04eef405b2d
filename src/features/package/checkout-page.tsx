import { CheckoutView } from './checkout-view.tsx';

/** /buy/checkout: payment notes of a package order. */
export default function CheckoutPage() {
  return <CheckoutView isGroup={false} />;
}
