-- Packages, orders and the signing quota under the flows (server/modules/package/README.md).
-- Money is kept in fen (integers). Times are timestamptz.

CREATE TABLE packages (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  name_en text NOT NULL,
  description text NOT NULL DEFAULT '',
  sale_product_type text NOT NULL CHECK (sale_product_type IN ('00', '10', '20', '90', '91')),
  signings integer NOT NULL CHECK (signings > 0),
  price_fen bigint NOT NULL CHECK (price_fen >= 0),
  validity_days integer NOT NULL CHECK (validity_days > 0),
  -- Group purchase tier prices: [{minCopies, priceFen}], the highest minCopies reached applies.
  tiers jsonb NOT NULL DEFAULT '[]'::jsonb,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE package_orders (
  id uuid PRIMARY KEY,
  order_no text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('single', 'group')),
  -- The buying account: 0 person (buyer_id = users.id), 1 company (buyer_id = companies.id).
  buyer_type integer NOT NULL CHECK (buyer_type IN (0, 1)),
  buyer_id uuid NOT NULL,
  buyer_user_id uuid NOT NULL REFERENCES users(id),
  buyer_name text NOT NULL,
  package_id uuid NOT NULL REFERENCES packages(id),
  -- What was bought, as it was at checkout (a later change of the package does not change the order).
  package_name text NOT NULL,
  package_name_en text NOT NULL,
  sale_product_type text NOT NULL,
  signings_per_copy integer NOT NULL,
  copies integer NOT NULL CHECK (copies > 0),
  total_quantity integer NOT NULL CHECK (total_quantity > 0),
  unit_price_fen bigint NOT NULL,
  amount_fen bigint NOT NULL,
  validity_days integer NOT NULL,
  status text NOT NULL CHECK (status IN ('awaiting_payment', 'paid', 'cancelled', 'refunded', 'expired')),
  provider text NOT NULL,
  created_at timestamptz NOT NULL,
  pay_by timestamptz NOT NULL,
  paid_at timestamptz,
  valid_until timestamptz,
  confirmed_by uuid REFERENCES users(id),
  payment_reference text,
  ended_at timestamptz,
  end_reason text
);
CREATE INDEX package_orders_buyer ON package_orders (buyer_type, buyer_id, created_at DESC);
CREATE INDEX package_orders_status ON package_orders (status, created_at DESC);

-- Group purchase: the receiving companies' shares (signings).
CREATE TABLE package_order_allocations (
  order_id uuid NOT NULL REFERENCES package_orders(id),
  company_id uuid NOT NULL REFERENCES companies(id),
  quantity integer NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (order_id, company_id)
);

-- Units an account owns from a paid order (its own purchase or a share of a group purchase).
-- quantity - reserved - used is what is left; after expires_at (or a refund) what is left lapses, while
-- units already reserved by running flows stay honoured (used at completion, gone when released).
CREATE TABLE account_packages (
  id uuid PRIMARY KEY,
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  order_id uuid NOT NULL REFERENCES package_orders(id),
  source text NOT NULL CHECK (source IN ('purchase', 'group')),
  name text NOT NULL,
  name_en text NOT NULL,
  sale_product_type text NOT NULL,
  quantity integer NOT NULL CHECK (quantity >= 0),
  reserved integer NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  used integer NOT NULL DEFAULT 0 CHECK (used >= 0),
  starts_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'refunded')),
  created_at timestamptz NOT NULL,
  CHECK (reserved + used <= quantity)
);
CREATE INDEX account_packages_owner ON account_packages (owner_type, owner_id, expires_at);

-- Which bucket each launched flow's unit came from (null: the starter allowance of signing_quotas) and
-- where it stands. Written in the launch transaction before the flow row, hence the deferred reference.
CREATE TABLE quota_holds (
  flow_id uuid PRIMARY KEY REFERENCES flows(id) DEFERRABLE INITIALLY DEFERRED,
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  account_package_id uuid REFERENCES account_packages(id),
  state text NOT NULL CHECK (state IN ('reserved', 'used', 'released')),
  reserved_at timestamptz NOT NULL,
  settled_at timestamptz
);
CREATE INDEX quota_holds_owner ON quota_holds (owner_type, owner_id, reserved_at DESC);
