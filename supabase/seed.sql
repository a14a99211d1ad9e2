-- Kiraa seed data for local development and tests (applied once, on a fresh database, after the
-- migrations). Fixed ids so tests and docs can refer to rows:
--   cars        ca000000-0000-4000-8000-0000000000NN  (01–46; 02 is retired: active = false)
--   locations   10c00000-0000-4000-8000-0000000000NN  (01–12 city centres, 21–30 airports)
--   users       d0000000-0000-4000-8000-00000000000N  (1 demo customer, 2 demo admin, 3–5 reviewers)
--   bookings    b0000000-0000-4000-8000-0000000000NN
--   reviews     e0000000-0000-4000-8000-0000000000NN
--   notifications a0000000-0000-4000-8000-0000000000NN
-- The demo accounts (docs/decisions.md) are for local use only, never in production:
--   client@kiraa.dz / Kiraa2026!   (customer)     admin@kiraa.dz / Kiraa2026!   (staff, TOTP below)
-- Booking dates are relative to the day the seed runs (Algiers time), so "upcoming" stays upcoming.

-- ---------------------------------------------------------------------------------------------
-- Helpers (session-local, gone when the seed's session ends)
-- ---------------------------------------------------------------------------------------------
create function pg_temp.localized(fr text, en text, ar text) returns jsonb
language sql immutable
as $$ select jsonb_build_object('fr', fr, 'en', en, 'ar', ar) $$;

-- /cars/<slug>-1.svg … /cars/<slug>-n.svg (drawn by scripts/generate-car-images.ts)
create function pg_temp.pictures(slug text, n integer) returns text[]
language sql immutable
as $$ select array(select '/cars/' || slug || '-' || i || '.svg' from generate_series(1, n) i) $$;

-- Midnight of today in Algiers + days + hours, as an instant.
create function pg_temp.algiers(days integer, hours integer) returns timestamptz
language sql stable
as $$
  select (date_trunc('day', now() at time zone 'Africa/Algiers')
          + make_interval(days => days, hours => hours)) at time zone 'Africa/Algiers'
$$;

-- A booking with its price computed by the one pricing function.
create function pg_temp.booking(
  id uuid, reference text, user_id uuid, car_id uuid, starts timestamptz, ends timestamptz,
  pickup uuid, dropoff uuid, driver text, extras text[], insurance text[], status text,
  status_reason text default null
) returns void
language plpgsql
as $$
declare
  price jsonb := internal.price_booking(car_id, starts, ends, pickup, dropoff, driver, extras,
    insurance);
begin
  insert into public.bookings (
    id, reference, user_id, car_id, start_at, end_at, pickup_location_id, dropoff_location_id,
    driver_option, license_path, extras, insurance, price, total_dzd, status, status_reason,
    payment_status, created_at, updated_at
  ) values (
    id, reference, user_id, car_id, starts, ends, pickup, dropoff,
    driver, id::text || '/permis-de-conduire.jpg', extras, insurance, price,
    (price ->> 'total')::integer, status, status_reason,
    case when status in ('in_progress', 'completed') then 'paid' else 'unpaid' end,
    starts - interval '6 days',
    case when status = 'completed' then ends + interval '1 hour' else starts - interval '5 days' end
  );
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Settings, extras, insurance options
-- ---------------------------------------------------------------------------------------------
-- site_url: the local app, for the links in guest mails (production sets its own: docs/database.md, "Operations").
insert into public.settings (id, driver_per_day_dzd, min_age, currency, time_zone, site_url)
values (1, 4000, 18, 'DZD', 'Africa/Algiers', 'http://localhost:4173');

insert into public.extras (code, name, price_dzd, per, sort_order) values
  ('baby_seat', pg_temp.localized('Siège bébé', 'Baby seat', 'مقعد أطفال'), 500, 'day', 1),
  ('full_tank', pg_temp.localized('Plein de carburant', 'Full tank', 'خزان وقود ممتلئ'), 7000, 'rental', 2),
  ('second_driver', pg_temp.localized('Conducteur supplémentaire', 'Second driver', 'سائق إضافي'), 1000, 'day', 3),
  ('additional_insurance', pg_temp.localized('Assurance complémentaire', 'Additional insurance', 'تأمين إضافي'), 1500, 'day', 4),
  ('gps', pg_temp.localized('Navigation GPS', 'GPS navigation', 'نظام الملاحة GPS'), 400, 'day', 5),
  ('wifi_hotspot', pg_temp.localized('Point d''accès WiFi', 'WiFi hotspot', 'نقطة اتصال واي فاي'), 600, 'day', 6);

insert into public.insurance_options (code, name, price_dzd_per_day, included, sort_order) values
  ('civil_liability', pg_temp.localized('Responsabilité civile', 'Civil liability', 'المسؤولية المدنية'), 0, true, 1),
  ('collision_damage', pg_temp.localized('Protection dommages collision', 'Collision damage protection', 'الحماية من أضرار الاصطدام'), 1500, false, 2),
  ('breakdown_assistance', pg_temp.localized('Assistance dépannage', 'Breakdown assistance', 'المساعدة عند العطل'), 500, false, 3),
  ('replacement_vehicle', pg_temp.localized('Véhicule de remplacement (selon disponibilité)', 'Replacement vehicle if available', 'سيارة بديلة حسب التوفر'), 800, false, 4),
  ('glass_headlights', pg_temp.localized('Protection vitres et phares', 'Glass and headlights protection', 'حماية الزجاج والمصابيح'), 400, false, 5),
  ('tires', pg_temp.localized('Protection pneus', 'Tire protection', 'حماية الإطارات'), 300, false, 6);

-- ---------------------------------------------------------------------------------------------
-- Pickup places: agency branches (no fee), city-centre deliveries and airports
-- ---------------------------------------------------------------------------------------------
insert into public.locations (id, kind, iata, name, delivery_fee_dzd, sort_order) values
  ('10c00000-0000-4000-8000-000000000001', 'city', null, pg_temp.localized('Alger Centre (agence)', 'Algiers city centre (branch)', 'الجزائر الوسطى (الوكالة)'), 0, 1),
  ('10c00000-0000-4000-8000-000000000002', 'city', null, pg_temp.localized('Oran centre (agence)', 'Oran city centre (branch)', 'وسط وهران (الوكالة)'), 0, 2),
  ('10c00000-0000-4000-8000-000000000003', 'city', null, pg_temp.localized('Constantine centre (agence)', 'Constantine city centre (branch)', 'وسط قسنطينة (الوكالة)'), 0, 3),
  ('10c00000-0000-4000-8000-000000000004', 'city', null, pg_temp.localized('Annaba centre', 'Annaba city centre', 'وسط عنابة'), 1500, 4),
  ('10c00000-0000-4000-8000-000000000005', 'city', null, pg_temp.localized('Tlemcen centre', 'Tlemcen city centre', 'وسط تلمسان'), 2000, 5),
  ('10c00000-0000-4000-8000-000000000006', 'city', null, pg_temp.localized('Béjaïa centre', 'Béjaïa city centre', 'وسط بجاية'), 1500, 6),
  ('10c00000-0000-4000-8000-000000000007', 'city', null, pg_temp.localized('Sétif centre', 'Sétif city centre', 'وسط سطيف'), 1500, 7),
  ('10c00000-0000-4000-8000-000000000008', 'city', null, pg_temp.localized('Ghardaïa centre', 'Ghardaïa city centre', 'وسط غرداية'), 4000, 8),
  ('10c00000-0000-4000-8000-000000000009', 'city', null, pg_temp.localized('Tamanrasset centre', 'Tamanrasset city centre', 'وسط تمنراست'), 8000, 9),
  ('10c00000-0000-4000-8000-000000000010', 'city', null, pg_temp.localized('Hassi Messaoud centre', 'Hassi Messaoud city centre', 'وسط حاسي مسعود'), 6000, 10),
  ('10c00000-0000-4000-8000-000000000011', 'city', null, pg_temp.localized('Blida centre', 'Blida city centre', 'وسط البليدة'), 1000, 11),
  ('10c00000-0000-4000-8000-000000000012', 'city', null, pg_temp.localized('Tizi Ouzou centre', 'Tizi Ouzou city centre', 'وسط تيزي وزو'), 1500, 12),
  ('10c00000-0000-4000-8000-000000000021', 'airport', 'ALG', pg_temp.localized('Aéroport d''Alger – Houari Boumediene', 'Algiers Houari Boumediene Airport', 'مطار الجزائر هواري بومدين'), 1500, 21),
  ('10c00000-0000-4000-8000-000000000022', 'airport', 'ORN', pg_temp.localized('Aéroport d''Oran – Ahmed Ben Bella', 'Oran Ahmed Ben Bella Airport', 'مطار وهران أحمد بن بلة'), 1500, 22),
  ('10c00000-0000-4000-8000-000000000023', 'airport', 'CZL', pg_temp.localized('Aéroport de Constantine – Mohamed Boudiaf', 'Constantine Mohamed Boudiaf Airport', 'مطار قسنطينة محمد بوضياف'), 1500, 23),
  ('10c00000-0000-4000-8000-000000000024', 'airport', 'AAE', pg_temp.localized('Aéroport d''Annaba – Rabah Bitat', 'Annaba Rabah Bitat Airport', 'مطار عنابة رابح بيطاط'), 2000, 24),
  ('10c00000-0000-4000-8000-000000000025', 'airport', 'TLM', pg_temp.localized('Aéroport de Tlemcen – Messali El Hadj', 'Tlemcen Messali El Hadj Airport', 'مطار تلمسان مصالي الحاج'), 2000, 25),
  ('10c00000-0000-4000-8000-000000000026', 'airport', 'BJA', pg_temp.localized('Aéroport de Béjaïa – Soummam–Abane Ramdane', 'Béjaïa Soummam–Abane Ramdane Airport', 'مطار بجاية الصومام عبان رمضان'), 2000, 26),
  ('10c00000-0000-4000-8000-000000000027', 'airport', 'QSF', pg_temp.localized('Aéroport de Sétif – 8 Mai 1945', 'Sétif 8 May 1945 Airport', 'مطار سطيف 8 ماي 1945'), 2000, 27),
  ('10c00000-0000-4000-8000-000000000028', 'airport', 'GHA', pg_temp.localized('Aéroport de Ghardaïa – Noumérat–Moufdi Zakaria', 'Ghardaïa Noumérat–Moufdi Zakaria Airport', 'مطار غرداية نومرات مفدي زكريا'), 4000, 28),
  ('10c00000-0000-4000-8000-000000000029', 'airport', 'TMR', pg_temp.localized('Aéroport de Tamanrasset – Aguenar', 'Tamanrasset Aguenar Airport', 'مطار تمنراست أقنار'), 8000, 29),
  ('10c00000-0000-4000-8000-000000000030', 'airport', 'HME', pg_temp.localized('Aéroport de Hassi Messaoud – Oued Irara–Krim Belkacem', 'Hassi Messaoud Oued Irara–Krim Belkacem Airport', 'مطار حاسي مسعود وادي إرارة كريم بلقاسم'), 6000, 30);

-- Opening hours (docs/opening-hours.md): weekday 0 = Sunday; [open, close] minutes, Algiers time.
-- Airports 06:00–23:00 every day; city places 08:00–19:00, closed on Friday (the weekend day).
update public.locations
   set opening_hours = '[[360,1380],[360,1380],[360,1380],[360,1380],[360,1380],[360,1380],[360,1380]]'
 where kind = 'airport';
update public.locations
   set opening_hours = '[[480,1140],[480,1140],[480,1140],[480,1140],[480,1140],null,[480,1140]]'
 where kind = 'city';

-- ---------------------------------------------------------------------------------------------
-- The fleet: 46 cars (45 active), the models Algerian agencies rent
-- ---------------------------------------------------------------------------------------------
insert into public.cars (
  id, slug, name, make, model, body, seats, doors, passengers, fuel, year, transmission, drive,
  engine, mileage_km, exterior_color, interior_color, features, daily_rate_dzd, deposit_dzd,
  images, active, description
) values
  ('ca000000-0000-4000-8000-000000000001', 'renault-clio-5-2023', 'Renault Clio 5', 'Renault', 'Clio',
   'hatchback', 5, 5, 5, 'diesel', 2023, 'manual', 'fwd', '1.5 Blue dCi 85 ch', 28400, 'white', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors}', 5500, 50000, pg_temp.pictures('renault-clio-5-2023', 3), true,
   pg_temp.localized(
     'La citadine la plus demandée d''Algérie, sobre en diesel et facile à garer. Idéale pour la ville comme pour les trajets Alger–Oran.',
     'Algeria''s most requested small car, frugal on diesel and easy to park. Ideal in town and for the Algiers–Oran run.',
     'السيارة الصغيرة الأكثر طلبا في الجزائر، اقتصادية في المازوت وسهلة الركن. مثالية داخل المدينة وللرحلات بين الجزائر العاصمة ووهران.')),
  ('ca000000-0000-4000-8000-000000000002', 'renault-clio-4-2019', 'Renault Clio 4', 'Renault', 'Clio',
   'hatchback', 5, 5, 5, 'petrol', 2019, 'manual', 'fwd', '1.2 16V 75 ch', 96500, 'grey', 'black',
   '{air_conditioning,bluetooth}', 4200, 40000, pg_temp.pictures('renault-clio-4-2019', 2), false,
   pg_temp.localized(
     'Une Clio 4 fiable et économique, parfaite pour les petits budgets. Retirée de la flotte.',
     'A reliable, economical Clio 4 for small budgets. Retired from the fleet.',
     'كليو 4 موثوقة واقتصادية للميزانيات الصغيرة. سُحبت من الأسطول.')),
  ('ca000000-0000-4000-8000-000000000003', 'renault-symbol-2022', 'Renault Symbol', 'Renault', 'Symbol',
   'sedan', 5, 4, 5, 'diesel', 2022, 'manual', 'fwd', '1.5 dCi 75 ch', 54200, 'silver', 'grey',
   '{air_conditioning,bluetooth}', 4500, 40000, pg_temp.pictures('renault-symbol-2022', 3), true,
   pg_temp.localized(
     'Berline familiale robuste au grand coffre, très répandue sur les routes algériennes. Consommation diesel réduite.',
     'A sturdy family saloon with a big boot, a familiar sight on Algerian roads. Low diesel consumption.',
     'سيارة عائلية متينة بصندوق كبير، منتشرة جدا في الطرقات الجزائرية. استهلاك منخفض للمازوت.')),
  ('ca000000-0000-4000-8000-000000000004', 'renault-symbol-2020', 'Renault Symbol', 'Renault', 'Symbol',
   'sedan', 5, 4, 5, 'petrol', 2020, 'manual', 'fwd', '1.2 16V 75 ch', 88300, 'white', 'grey',
   '{air_conditioning}', 4000, 35000, pg_temp.pictures('renault-symbol-2020', 2), true,
   pg_temp.localized(
     'Symbol essence simple et fiable pour vos déplacements quotidiens, avec climatisation.',
     'A simple, dependable petrol Symbol for everyday trips, with air conditioning.',
     'سامبول بنزين بسيطة وموثوقة لتنقلاتك اليومية، مع مكيف هواء.')),
  ('ca000000-0000-4000-8000-000000000005', 'dacia-logan-2023', 'Dacia Logan', 'Dacia', 'Logan',
   'sedan', 5, 4, 5, 'petrol', 2023, 'manual', 'fwd', '1.0 TCe 90 ch', 31800, 'blue', 'black',
   '{air_conditioning,bluetooth,parking_sensors}', 4800, 40000, pg_temp.pictures('dacia-logan-2023', 3), true,
   pg_temp.localized(
     'La nouvelle Logan, spacieuse et moderne, avec un moteur turbo essence sobre et des radars de recul.',
     'The new Logan: roomy and modern, with a frugal turbo petrol engine and rear parking sensors.',
     'لوغان الجديدة، واسعة وعصرية، بمحرك بنزين توربو اقتصادي وحساسات ركن خلفية.')),
  ('ca000000-0000-4000-8000-000000000006', 'dacia-logan-2020', 'Dacia Logan', 'Dacia', 'Logan',
   'sedan', 5, 4, 5, 'diesel', 2020, 'manual', 'fwd', '1.5 dCi 90 ch', 102400, 'white', 'grey',
   '{air_conditioning}', 3900, 35000, pg_temp.pictures('dacia-logan-2020', 2), true,
   pg_temp.localized(
     'Logan diesel increvable, le choix malin pour les longs trajets à petit prix.',
     'A tireless diesel Logan, the smart choice for long trips on a budget.',
     'لوغان مازوت لا تتعب، الخيار الذكي للرحلات الطويلة بسعر منخفض.')),
  ('ca000000-0000-4000-8000-000000000007', 'dacia-logan-eco-g-2024', 'Dacia Logan ECO-G', 'Dacia', 'Logan',
   'sedan', 5, 4, 5, 'lpg', 2024, 'manual', 'fwd', '1.0 TCe 100 ch GPL', 12600, 'grey', 'black',
   '{air_conditioning,bluetooth,gps}', 5000, 40000, pg_temp.pictures('dacia-logan-eco-g-2024', 2), true,
   pg_temp.localized(
     'Logan bicarburation essence/GPL (Sirghaz) : le plein de GPL coûte une fraction de l''essence. GPS inclus.',
     'A dual-fuel petrol/LPG (Sirghaz) Logan: a tank of LPG costs a fraction of petrol. GPS included.',
     'لوغان بوقود مزدوج بنزين/غاز البترول المميع (سيرغاز): ملء الخزان بالغاز يكلف جزءا بسيطا من البنزين. نظام GPS مدمج.')),
  ('ca000000-0000-4000-8000-000000000008', 'dacia-sandero-stepway-2023', 'Dacia Sandero Stepway', 'Dacia', 'Sandero',
   'hatchback', 5, 5, 5, 'petrol', 2023, 'manual', 'fwd', '1.0 TCe 90 ch', 26900, 'orange', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors}', 5200, 45000, pg_temp.pictures('dacia-sandero-stepway-2023', 3), true,
   pg_temp.localized(
     'Le Sandero Stepway à l''allure baroudeuse, garde au sol surélevée pour les routes de campagne.',
     'The rugged-looking Sandero Stepway, with extra ground clearance for country roads.',
     'ساندرو ستيبواي بمظهر المغامرة، وارتفاع أكبر عن الأرض للطرق الريفية.')),
  ('ca000000-0000-4000-8000-000000000009', 'dacia-sandero-2021', 'Dacia Sandero', 'Dacia', 'Sandero',
   'hatchback', 5, 5, 5, 'diesel', 2021, 'manual', 'fwd', '1.5 dCi 75 ch', 74100, 'red', 'black',
   '{air_conditioning,bluetooth}', 4300, 35000, pg_temp.pictures('dacia-sandero-2021', 2), true,
   pg_temp.localized(
     'Sandero diesel pratique et économique, cinq portes et un coffre généreux.',
     'A practical, economical diesel Sandero with five doors and a generous boot.',
     'ساندرو مازوت عملية واقتصادية بخمسة أبواب وصندوق واسع.')),
  ('ca000000-0000-4000-8000-000000000010', 'dacia-duster-4x4-2023', 'Dacia Duster 4x4', 'Dacia', 'Duster',
   'suv', 5, 5, 5, 'diesel', 2023, 'manual', '4wd', '1.5 dCi 115 ch', 38700, 'green', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors}', 8500, 80000, pg_temp.pictures('dacia-duster-4x4-2023', 3), true,
   pg_temp.localized(
     'Le Duster 4x4, roi des pistes du Sud : transmission intégrale, garde au sol élevée et GPS pour rejoindre Ghardaïa ou Djanet.',
     'The Duster 4x4, king of the southern tracks: four-wheel drive, high ground clearance and GPS to reach Ghardaïa or Djanet.',
     'داستر 4x4، ملك مسالك الجنوب: دفع رباعي وارتفاع كبير عن الأرض ونظام GPS للوصول إلى غرداية أو جانت.')),
  ('ca000000-0000-4000-8000-000000000011', 'dacia-duster-edc-2022', 'Dacia Duster EDC', 'Dacia', 'Duster',
   'suv', 5, 5, 5, 'petrol', 2022, 'automatic', 'fwd', '1.3 TCe 150 ch EDC', 45300, 'brown', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors}', 8000, 80000, pg_temp.pictures('dacia-duster-edc-2022', 2), true,
   pg_temp.localized(
     'Duster à boîte automatique EDC, confortable en ville comme sur autoroute.',
     'A Duster with the EDC automatic gearbox, comfortable in town and on the motorway.',
     'داستر بعلبة سرعات أوتوماتيكية EDC، مريحة في المدينة وعلى الطريق السيار.')),
  ('ca000000-0000-4000-8000-000000000012', 'peugeot-208-2023', 'Peugeot 208', 'Peugeot', '208',
   'hatchback', 5, 5, 5, 'petrol', 2023, 'automatic', 'fwd', '1.2 PureTech 100 ch EAT8', 19800, 'yellow', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors}', 6800, 60000, pg_temp.pictures('peugeot-208-2023', 3), true,
   pg_temp.localized(
     'Peugeot 208 automatique au design affûté, écran tactile et navigation intégrée.',
     'A sharp-looking automatic Peugeot 208 with touchscreen and built-in navigation.',
     'بيجو 208 أوتوماتيكية بتصميم أنيق، مع شاشة لمس ونظام ملاحة مدمج.')),
  ('ca000000-0000-4000-8000-000000000013', 'peugeot-208-2020', 'Peugeot 208', 'Peugeot', '208',
   'hatchback', 5, 5, 5, 'diesel', 2020, 'manual', 'fwd', '1.5 BlueHDi 100 ch', 81200, 'black', 'grey',
   '{air_conditioning,bluetooth}', 5200, 45000, pg_temp.pictures('peugeot-208-2020', 2), true,
   pg_temp.localized(
     'Peugeot 208 diesel agile et sobre, idéale pour circuler en ville.',
     'A nimble, frugal diesel Peugeot 208, ideal for city driving.',
     'بيجو 208 مازوت رشيقة واقتصادية، مثالية للتنقل في المدينة.')),
  ('ca000000-0000-4000-8000-000000000014', 'peugeot-301-2021', 'Peugeot 301', 'Peugeot', '301',
   'sedan', 5, 4, 5, 'diesel', 2021, 'manual', 'fwd', '1.6 BlueHDi 100 ch', 67400, 'white', 'grey',
   '{air_conditioning,bluetooth,parking_sensors}', 5000, 45000, pg_temp.pictures('peugeot-301-2021', 3), true,
   pg_temp.localized(
     'La 301 diesel, berline confortable au grand coffre appréciée des familles.',
     'The diesel 301, a comfortable saloon with a large boot that families love.',
     'بيجو 301 مازوت، سيارة مريحة بصندوق كبير تحبها العائلات.')),
  ('ca000000-0000-4000-8000-000000000015', 'peugeot-301-2019', 'Peugeot 301', 'Peugeot', '301',
   'sedan', 5, 4, 5, 'petrol', 2019, 'automatic', 'fwd', '1.6 VTi 115 ch BVA', 112000, 'silver', 'beige',
   '{air_conditioning,bluetooth}', 4800, 40000, pg_temp.pictures('peugeot-301-2019', 2), true,
   pg_temp.localized(
     'Peugeot 301 à boîte automatique pour des trajets sans effort.',
     'An automatic Peugeot 301 for effortless journeys.',
     'بيجو 301 بعلبة سرعات أوتوماتيكية لرحلات بلا عناء.')),
  ('ca000000-0000-4000-8000-000000000016', 'peugeot-2008-2024', 'Peugeot 2008', 'Peugeot', '2008',
   'suv', 5, 5, 5, 'petrol', 2024, 'automatic', 'fwd', '1.2 PureTech 130 ch EAT8', 8900, 'blue', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors,sunroof}', 9800, 90000, pg_temp.pictures('peugeot-2008-2024', 3), true,
   pg_temp.localized(
     'SUV urbain Peugeot 2008 récent, boîte automatique EAT8, toit ouvrant et aides à la conduite.',
     'A recent Peugeot 2008 urban SUV with the EAT8 automatic gearbox, a sunroof and driving aids.',
     'سيارة رياضية حضرية بيجو 2008 حديثة، بعلبة سرعات أوتوماتيكية EAT8 وسقف متحرك ومساعدات القيادة.')),
  ('ca000000-0000-4000-8000-000000000017', 'hyundai-accent-2022', 'Hyundai Accent', 'Hyundai', 'Accent',
   'sedan', 5, 4, 5, 'petrol', 2022, 'automatic', 'fwd', '1.6 MPi 123 ch', 41200, 'white', 'beige',
   '{air_conditioning,bluetooth,parking_sensors}', 5500, 45000, pg_temp.pictures('hyundai-accent-2022', 3), true,
   pg_temp.localized(
     'Hyundai Accent automatique, fiable et bien équipée, une valeur sûre en Algérie.',
     'An automatic Hyundai Accent, reliable and well equipped, a safe bet in Algeria.',
     'هيونداي أكسنت أوتوماتيكية، موثوقة ومجهزة جيدا، قيمة مضمونة في الجزائر.')),
  ('ca000000-0000-4000-8000-000000000018', 'hyundai-accent-2020', 'Hyundai Accent', 'Hyundai', 'Accent',
   'sedan', 5, 4, 5, 'diesel', 2020, 'manual', 'fwd', '1.6 CRDi 128 ch', 93600, 'grey', 'black',
   '{air_conditioning,bluetooth}', 4700, 40000, pg_temp.pictures('hyundai-accent-2020', 2), true,
   pg_temp.localized(
     'Accent diesel endurante, parfaite pour avaler les kilomètres.',
     'A hard-wearing diesel Accent, made for covering the miles.',
     'أكسنت مازوت متينة، مثالية لقطع المسافات الطويلة.')),
  ('ca000000-0000-4000-8000-000000000019', 'hyundai-i10-2023', 'Hyundai i10', 'Hyundai', 'i10',
   'city', 4, 5, 4, 'petrol', 2023, 'manual', 'fwd', '1.0 MPi 67 ch', 17300, 'red', 'black',
   '{air_conditioning,bluetooth}', 3800, 30000, pg_temp.pictures('hyundai-i10-2023', 3), true,
   pg_temp.localized(
     'Petite Hyundai i10 maniable pour quatre personnes, la reine des ruelles d''Alger.',
     'A handy little Hyundai i10 for four, queen of the narrow streets of Algiers.',
     'هيونداي i10 صغيرة وسهلة القيادة لأربعة أشخاص، ملكة الأزقة الضيقة في العاصمة.')),
  ('ca000000-0000-4000-8000-000000000020', 'hyundai-i10-2021', 'Hyundai i10', 'Hyundai', 'i10',
   'city', 4, 5, 4, 'petrol', 2021, 'automatic', 'fwd', '1.2 MPi 84 ch AMT', 52900, 'silver', 'grey',
   '{air_conditioning}', 4000, 30000, pg_temp.pictures('hyundai-i10-2021', 2), true,
   pg_temp.localized(
     'Hyundai i10 à boîte automatique pilotée, la conduite en ville sans embrayage.',
     'A Hyundai i10 with an automated gearbox: city driving without a clutch.',
     'هيونداي i10 بعلبة سرعات آلية: قيادة في المدينة بدون دواسة قابض.')),
  ('ca000000-0000-4000-8000-000000000021', 'hyundai-tucson-2024', 'Hyundai Tucson', 'Hyundai', 'Tucson',
   'suv', 5, 5, 5, 'diesel', 2024, 'automatic', '4wd', '1.6 CRDi 136 ch DCT', 11200, 'black', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors,heated_seats,leather_seats,sunroof}', 14000, 150000, pg_temp.pictures('hyundai-tucson-2024', 3), true,
   pg_temp.localized(
     'Hyundai Tucson haut de gamme : 4x4, cuir, sièges chauffants et toit panoramique.',
     'A top-of-the-range Hyundai Tucson: four-wheel drive, leather, heated seats and a panoramic roof.',
     'هيونداي توسان من الفئة العليا: دفع رباعي وجلد ومقاعد مدفأة وسقف بانورامي.')),
  ('ca000000-0000-4000-8000-000000000022', 'hyundai-tucson-2021', 'Hyundai Tucson', 'Hyundai', 'Tucson',
   'suv', 5, 5, 5, 'diesel', 2021, 'manual', 'fwd', '2.0 CRDi 136 ch', 76500, 'white', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors}', 11000, 120000, pg_temp.pictures('hyundai-tucson-2021', 2), true,
   pg_temp.localized(
     'Tucson diesel spacieux et confortable pour les voyages en famille.',
     'A roomy, comfortable diesel Tucson for family trips.',
     'توسان مازوت واسعة ومريحة للرحلات العائلية.')),
  ('ca000000-0000-4000-8000-000000000023', 'kia-picanto-2023', 'Kia Picanto', 'Kia', 'Picanto',
   'city', 4, 5, 4, 'petrol', 2023, 'manual', 'fwd', '1.0 MPi 67 ch', 21500, 'white', 'black',
   '{air_conditioning,bluetooth}', 3500, 30000, pg_temp.pictures('kia-picanto-2023', 3), true,
   pg_temp.localized(
     'La Kia Picanto, la plus économique de la flotte, pour quatre passagers.',
     'The Kia Picanto, the most economical car in the fleet, for four passengers.',
     'كيا بيكانتو، الأكثر اقتصادا في الأسطول، لأربعة ركاب.')),
  ('ca000000-0000-4000-8000-000000000024', 'kia-picanto-2022', 'Kia Picanto', 'Kia', 'Picanto',
   'city', 4, 5, 4, 'petrol', 2022, 'automatic', 'fwd', '1.2 MPi 84 ch', 38400, 'orange', 'black',
   '{air_conditioning,bluetooth}', 3800, 30000, pg_temp.pictures('kia-picanto-2022', 2), true,
   pg_temp.localized(
     'Picanto automatique, compacte et facile à vivre au quotidien.',
     'An automatic Picanto, compact and easy to live with.',
     'بيكانتو أوتوماتيكية، صغيرة وسهلة الاستعمال يوميا.')),
  ('ca000000-0000-4000-8000-000000000025', 'kia-sportage-2024', 'Kia Sportage', 'Kia', 'Sportage',
   'suv', 5, 5, 5, 'diesel', 2024, 'automatic', 'awd', '1.6 CRDi 136 ch DCT', 9700, 'grey', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors,heated_seats,leather_seats}', 14500, 150000, pg_temp.pictures('kia-sportage-2024', 3), true,
   pg_temp.localized(
     'Kia Sportage récent à transmission intégrale, cuir et sièges chauffants.',
     'A recent all-wheel-drive Kia Sportage with leather and heated seats.',
     'كيا سبورتاج حديثة بدفع كلي وجلد ومقاعد مدفأة.')),
  ('ca000000-0000-4000-8000-000000000026', 'kia-sportage-2020', 'Kia Sportage', 'Kia', 'Sportage',
   'suv', 5, 5, 5, 'diesel', 2020, 'manual', 'fwd', '1.6 CRDi 115 ch', 98300, 'silver', 'black',
   '{air_conditioning,bluetooth,parking_sensors}', 10000, 100000, pg_temp.pictures('kia-sportage-2020', 2), true,
   pg_temp.localized(
     'Sportage diesel polyvalent, à l''aise sur les routes des Hauts Plateaux.',
     'A versatile diesel Sportage, at home on the roads of the High Plateaus.',
     'سبورتاج مازوت متعددة الاستعمالات، مريحة على طرقات الهضاب العليا.')),
  ('ca000000-0000-4000-8000-000000000027', 'volkswagen-golf-8-2022', 'Volkswagen Golf 8', 'Volkswagen', 'Golf',
   'hatchback', 5, 5, 5, 'diesel', 2022, 'automatic', 'fwd', '2.0 TDI 150 ch DSG', 43800, 'grey', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors,heated_seats}', 11000, 120000, pg_temp.pictures('volkswagen-golf-8-2022', 3), true,
   pg_temp.localized(
     'Volkswagen Golf 8 TDI à boîte DSG, confort et technologie allemande.',
     'A Volkswagen Golf 8 TDI with the DSG gearbox: German comfort and technology.',
     'فولكس فاغن غولف 8 TDI بعلبة DSG، راحة وتكنولوجيا ألمانية.')),
  ('ca000000-0000-4000-8000-000000000028', 'volkswagen-golf-7-2019', 'Volkswagen Golf 7', 'Volkswagen', 'Golf',
   'hatchback', 5, 5, 5, 'diesel', 2019, 'manual', 'fwd', '1.6 TDI 115 ch', 118900, 'black', 'black',
   '{air_conditioning,bluetooth,parking_sensors}', 7500, 80000, pg_temp.pictures('volkswagen-golf-7-2019', 2), true,
   pg_temp.localized(
     'Golf 7 TDI, une référence de robustesse pour les longs trajets.',
     'A Golf 7 TDI, a benchmark of robustness for long journeys.',
     'غولف 7 TDI، مرجع في المتانة للرحلات الطويلة.')),
  ('ca000000-0000-4000-8000-000000000029', 'volkswagen-polo-2022', 'Volkswagen Polo', 'Volkswagen', 'Polo',
   'hatchback', 5, 5, 5, 'petrol', 2022, 'manual', 'fwd', '1.0 TSI 95 ch', 36200, 'blue', 'black',
   '{air_conditioning,bluetooth,gps}', 6500, 60000, pg_temp.pictures('volkswagen-polo-2022', 3), true,
   pg_temp.localized(
     'Volkswagen Polo vive et bien finie, GPS intégré.',
     'A lively, well-finished Volkswagen Polo with built-in GPS.',
     'فولكس فاغن بولو حيوية وجيدة التشطيب، مع نظام GPS مدمج.')),
  ('ca000000-0000-4000-8000-000000000030', 'volkswagen-polo-dsg-2021', 'Volkswagen Polo DSG', 'Volkswagen', 'Polo',
   'hatchback', 5, 5, 5, 'petrol', 2021, 'automatic', 'fwd', '1.0 TSI 110 ch DSG', 57800, 'white', 'grey',
   '{air_conditioning,bluetooth,parking_sensors}', 6800, 60000, pg_temp.pictures('volkswagen-polo-dsg-2021', 2), true,
   pg_temp.localized(
     'Polo à boîte DSG automatique, douce et économique.',
     'A Polo with the automatic DSG gearbox, smooth and economical.',
     'بولو بعلبة DSG أوتوماتيكية، سلسة واقتصادية.')),
  ('ca000000-0000-4000-8000-000000000031', 'seat-ibiza-2023', 'Seat Ibiza', 'Seat', 'Ibiza',
   'hatchback', 5, 5, 5, 'petrol', 2023, 'manual', 'fwd', '1.0 TSI 110 ch', 22400, 'red', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors}', 6200, 55000, pg_temp.pictures('seat-ibiza-2023', 3), true,
   pg_temp.localized(
     'Seat Ibiza dynamique, connectée et agréable à conduire.',
     'A sporty, connected Seat Ibiza that is a joy to drive.',
     'سيات إيبيزا ديناميكية ومتصلة وممتعة في القيادة.')),
  ('ca000000-0000-4000-8000-000000000032', 'seat-ibiza-2020', 'Seat Ibiza', 'Seat', 'Ibiza',
   'hatchback', 5, 5, 5, 'diesel', 2020, 'manual', 'fwd', '1.6 TDI 95 ch', 89700, 'white', 'black',
   '{air_conditioning,bluetooth}', 5000, 45000, pg_temp.pictures('seat-ibiza-2020', 2), true,
   pg_temp.localized(
     'Seat Ibiza diesel, fiable et sobre, parfaite pour un budget serré.',
     'A reliable, frugal diesel Seat Ibiza, perfect for a tight budget.',
     'سيات إيبيزا مازوت موثوقة واقتصادية، مثالية لميزانية محدودة.')),
  ('ca000000-0000-4000-8000-000000000033', 'skoda-octavia-2023', 'Skoda Octavia', 'Skoda', 'Octavia',
   'sedan', 5, 5, 5, 'diesel', 2023, 'automatic', 'fwd', '2.0 TDI 150 ch DSG', 29300, 'grey', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors,heated_seats,leather_seats}', 11500, 120000, pg_temp.pictures('skoda-octavia-2023', 3), true,
   pg_temp.localized(
     'Skoda Octavia spacieuse et raffinée, boîte DSG, cuir et sièges chauffants : l''idéal pour les voyages d''affaires.',
     'A spacious, refined Skoda Octavia with DSG, leather and heated seats: ideal for business trips.',
     'سكودا أوكتافيا واسعة وراقية بعلبة DSG وجلد ومقاعد مدفأة: مثالية لرحلات العمل.')),
  ('ca000000-0000-4000-8000-000000000034', 'toyota-yaris-hybrid-2023', 'Toyota Yaris Hybrid', 'Toyota', 'Yaris',
   'hatchback', 5, 5, 5, 'hybrid', 2023, 'automatic', 'fwd', '1.5 Hybrid 116 ch', 24600, 'red', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors}', 7500, 70000, pg_temp.pictures('toyota-yaris-hybrid-2023', 3), true,
   pg_temp.localized(
     'Toyota Yaris hybride, silencieuse en ville et très sobre en carburant.',
     'A hybrid Toyota Yaris, quiet in town and very light on fuel.',
     'تويوتا ياريس هجينة، هادئة في المدينة واقتصادية جدا في الوقود.')),
  ('ca000000-0000-4000-8000-000000000035', 'toyota-corolla-2023', 'Toyota Corolla', 'Toyota', 'Corolla',
   'sedan', 5, 4, 5, 'hybrid', 2023, 'automatic', 'fwd', '1.8 Hybrid 140 ch', 31900, 'white', 'beige',
   '{air_conditioning,bluetooth,gps,parking_sensors,leather_seats}', 10000, 100000, pg_temp.pictures('toyota-corolla-2023', 3), true,
   pg_temp.localized(
     'Toyota Corolla hybride, berline confortable, fiable et économe.',
     'A hybrid Toyota Corolla: a comfortable, reliable and thrifty saloon.',
     'تويوتا كورولا هجينة، سيارة مريحة وموثوقة واقتصادية.')),
  ('ca000000-0000-4000-8000-000000000036', 'toyota-hilux-double-cab-2022', 'Toyota Hilux double cabine', 'Toyota', 'Hilux',
   'pickup', 5, 4, 5, 'diesel', 2022, 'manual', '4wd', '2.4 D-4D 150 ch', 64800, 'white', 'grey',
   '{air_conditioning,bluetooth}', 15000, 150000, pg_temp.pictures('toyota-hilux-double-cab-2022', 3), true,
   pg_temp.localized(
     'Toyota Hilux double cabine 4x4, le pick-up de référence pour le chantier comme pour le désert.',
     'The Toyota Hilux double cab 4x4, the benchmark pick-up for work sites and the desert alike.',
     'تويوتا هايلكس بكابينة مزدوجة 4x4، البيك أب المرجعي للورشات والصحراء على حد سواء.')),
  ('ca000000-0000-4000-8000-000000000037', 'toyota-hilux-single-cab-2021', 'Toyota Hilux simple cabine', 'Toyota', 'Hilux',
   'pickup', 2, 2, 2, 'diesel', 2021, 'manual', '4wd', '2.4 D-4D 150 ch', 87400, 'white', 'grey',
   '{air_conditioning}', 12000, 120000, pg_temp.pictures('toyota-hilux-single-cab-2021', 2), true,
   pg_temp.localized(
     'Hilux simple cabine 4x4 à grand plateau, pour transporter matériel et marchandises.',
     'A single-cab Hilux 4x4 with a long bed, for carrying equipment and goods.',
     'هايلكس بكابينة مفردة 4x4 بصندوق كبير، لنقل المعدات والبضائع.')),
  ('ca000000-0000-4000-8000-000000000038', 'toyota-land-cruiser-prado-2023', 'Toyota Land Cruiser Prado', 'Toyota', 'Land Cruiser',
   'suv', 7, 5, 7, 'diesel', 2023, 'automatic', '4wd', '2.8 D-4D 204 ch', 34500, 'beige', 'brown',
   '{air_conditioning,bluetooth,gps,parking_sensors,heated_seats,leather_seats,sunroof}', 25000, 200000, pg_temp.pictures('toyota-land-cruiser-prado-2023', 3), true,
   pg_temp.localized(
     'Toyota Land Cruiser Prado sept places : le 4x4 mythique pour traverser le Sahara en tout confort.',
     'The seven-seat Toyota Land Cruiser Prado: the legendary 4x4 for crossing the Sahara in comfort.',
     'تويوتا لاندكروزر برادو بسبعة مقاعد: سيارة الدفع الرباعي الأسطورية لعبور الصحراء براحة تامة.')),
  ('ca000000-0000-4000-8000-000000000039', 'fiat-tipo-2024', 'Fiat Tipo', 'Fiat', 'Tipo',
   'sedan', 5, 4, 5, 'petrol', 2024, 'manual', 'fwd', '1.4 16V 95 ch', 9800, 'grey', 'black',
   '{air_conditioning,bluetooth,parking_sensors}', 5000, 45000, pg_temp.pictures('fiat-tipo-2024', 3), true,
   pg_temp.localized(
     'Fiat Tipo fabriquée à Oran, berline moderne et accessible.',
     'A Fiat Tipo built in Oran: a modern, affordable saloon.',
     'فيات تيبو المصنعة في وهران، سيارة عصرية وفي المتناول.')),
  ('ca000000-0000-4000-8000-000000000040', 'fiat-doblo-2024', 'Fiat Doblò', 'Fiat', 'Doblò',
   'van', 5, 5, 5, 'diesel', 2024, 'manual', 'fwd', '1.5 BlueHDi 100 ch', 14200, 'white', 'grey',
   '{air_conditioning,bluetooth}', 7000, 60000, pg_temp.pictures('fiat-doblo-2024', 2), true,
   pg_temp.localized(
     'Fiat Doblò ludospace fabriqué à Oran, grand volume pour la famille et les bagages.',
     'A Fiat Doblò MPV built in Oran, with lots of room for family and luggage.',
     'فيات دوبلو المصنعة في وهران، مساحة كبيرة للعائلة والأمتعة.')),
  ('ca000000-0000-4000-8000-000000000041', 'suzuki-swift-2022', 'Suzuki Swift', 'Suzuki', 'Swift',
   'hatchback', 5, 5, 5, 'petrol', 2022, 'manual', 'fwd', '1.2 Dualjet 83 ch', 33600, 'blue', 'black',
   '{air_conditioning,bluetooth}', 4800, 40000, pg_temp.pictures('suzuki-swift-2022', 3), true,
   pg_temp.localized(
     'Suzuki Swift légère et joueuse, très économique.',
     'A light, playful and very economical Suzuki Swift.',
     'سوزوكي سويفت خفيفة وممتعة واقتصادية جدا.')),
  ('ca000000-0000-4000-8000-000000000042', 'chery-tiggo-4-pro-2024', 'Chery Tiggo 4 Pro', 'Chery', 'Tiggo 4 Pro',
   'suv', 5, 5, 5, 'petrol', 2024, 'automatic', 'fwd', '1.5 T 147 ch CVT', 7600, 'silver', 'black',
   '{air_conditioning,bluetooth,gps,parking_sensors,sunroof}', 8000, 80000, pg_temp.pictures('chery-tiggo-4-pro-2024', 3), true,
   pg_temp.localized(
     'Chery Tiggo 4 Pro automatique, SUV bien équipé avec toit ouvrant.',
     'An automatic Chery Tiggo 4 Pro, a well-equipped SUV with a sunroof.',
     'شيري تيغو 4 برو أوتوماتيكية، سيارة رياضية مجهزة جيدا بسقف متحرك.')),
  ('ca000000-0000-4000-8000-000000000043', 'chery-tiggo-8-pro-2024', 'Chery Tiggo 8 Pro', 'Chery', 'Tiggo 8 Pro',
   'suv', 7, 5, 7, 'petrol', 2024, 'automatic', 'fwd', '1.6 TGDI 186 ch DCT', 12300, 'black', 'brown',
   '{air_conditioning,bluetooth,gps,parking_sensors,heated_seats,leather_seats,sunroof}', 12500, 120000, pg_temp.pictures('chery-tiggo-8-pro-2024', 3), true,
   pg_temp.localized(
     'Chery Tiggo 8 Pro sept places, luxueux et spacieux pour les grandes familles.',
     'The seven-seat Chery Tiggo 8 Pro, plush and roomy for large families.',
     'شيري تيغو 8 برو بسبعة مقاعد، فاخرة وواسعة للعائلات الكبيرة.')),
  ('ca000000-0000-4000-8000-000000000044', 'mercedes-vito-tourer-2022', 'Mercedes-Benz Vito Tourer', 'Mercedes-Benz', 'Vito',
   'van', 9, 4, 9, 'diesel', 2022, 'automatic', 'rwd', '2.0 116 CDI 163 ch', 58200, 'black', 'grey',
   '{air_conditioning,bluetooth,gps,parking_sensors,leather_seats}', 18000, 150000, pg_temp.pictures('mercedes-vito-tourer-2022', 3), true,
   pg_temp.localized(
     'Mercedes-Benz Vito Tourer neuf places, pour les groupes, les mariages et les transferts aéroport.',
     'The nine-seat Mercedes-Benz Vito Tourer, for groups, weddings and airport transfers.',
     'مرسيدس بنز فيتو تورر بتسعة مقاعد، للمجموعات والأعراس والتنقل من وإلى المطار.')),
  ('ca000000-0000-4000-8000-000000000045', 'renault-kangoo-van-2021', 'Renault Kangoo Van', 'Renault', 'Kangoo',
   'van', 2, 4, 2, 'diesel', 2021, 'manual', 'fwd', '1.5 dCi 95 ch', 71900, 'white', 'grey',
   '{air_conditioning}', 5500, 40000, pg_temp.pictures('renault-kangoo-van-2021', 2), true,
   pg_temp.localized(
     'Renault Kangoo fourgon deux places, grand volume utile pour vos déménagements.',
     'A two-seat Renault Kangoo van with a large load space for moving house.',
     'رونو كانغو فورغون بمقعدين، مساحة حمولة كبيرة لنقل الأثاث.')),
  ('ca000000-0000-4000-8000-000000000046', 'hyundai-h1-2021', 'Hyundai H-1', 'Hyundai', 'H-1',
   'van', 9, 4, 9, 'diesel', 2021, 'manual', 'rwd', '2.5 CRDi 136 ch', 103000, 'silver', 'grey',
   '{air_conditioning}', 14000, 120000, pg_temp.pictures('hyundai-h1-2021', 2), true,
   pg_temp.localized(
     'Hyundai H-1 neuf places, le minibus fiable des familles et des équipes.',
     'The nine-seat Hyundai H-1, the reliable minibus for families and teams.',
     'هيونداي H-1 بتسعة مقاعد، الحافلة الصغيرة الموثوقة للعائلات والفرق.'));

-- ---------------------------------------------------------------------------------------------
-- Accounts (local only): the demo customer and admin of docs/decisions.md, and three customers
-- whose reviews give the car pages some stars. Password of all: Kiraa2026!
-- The profiles come from the auth trigger (raw_user_meta_data {name, phone, age, address}).
-- ---------------------------------------------------------------------------------------------
-- The demo accounts' domains count like public mail providers, each mailbox on its own (the
-- demo agency's own domain would otherwise be one source, capped at 3 pending bookings: docs/
-- decisions.md, "Who may hold the fleet"). Local demo only: the seed never reaches production.
insert into internal.mail_providers (domain) values ('kiraa.dz'), ('example.com')
on conflict (domain) do nothing;

insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
  raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
  email_change_token_new, email_change
)
select
  '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
  extensions.crypt('Kiraa2026!', extensions.gen_salt('bf')), now() - interval '400 days',
  '{"provider": "email", "providers": ["email"]}'::jsonb,
  jsonb_build_object('name', u.name, 'phone', u.phone, 'age', u.age, 'address', u.address),
  now() - interval '400 days', now() - interval '400 days', '', '', '', ''
from (values
  ('d0000000-0000-4000-8000-000000000001'::uuid, 'client@kiraa.dz', 'Karim Benali', '+213555123456', 34,
    '12 rue Didouche Mourad, Alger Centre, 16000 Alger'),
  ('d0000000-0000-4000-8000-000000000002'::uuid, 'admin@kiraa.dz', 'Samira Haddad', '+213770100200', 41,
    'Agence Kiraa, 5 boulevard Zighout Youcef, 16000 Alger'),
  ('d0000000-0000-4000-8000-000000000003'::uuid, 'amina.larbi@example.com', 'Amina Larbi', '+213661234567', 29,
    '8 boulevard de la Soummam, 31000 Oran'),
  ('d0000000-0000-4000-8000-000000000004'::uuid, 'yacine.mansouri@example.com', 'Yacine Mansouri', '+213550987654', 45,
    '23 rue Abane Ramdane, 25000 Constantine'),
  ('d0000000-0000-4000-8000-000000000005'::uuid, 'nadia.cherif@example.com', 'Nadia Cherif', '+33612345678', 38,
    '14 rue de la République, 69002 Lyon, France')
) as u(id, email, name, phone, age, address);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at,
  created_at, updated_at)
select u.id::text, u.id,
  jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true,
    'phone_verified', false),
  'email', now() - interval '400 days', now() - interval '400 days', now() - interval '400 days'
from auth.users u
where u.id in ('d0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000002',
  'd0000000-0000-4000-8000-000000000003', 'd0000000-0000-4000-8000-000000000004',
  'd0000000-0000-4000-8000-000000000005');

-- Staff (copied into auth.users.raw_app_meta_data.role by the profiles trigger).
update public.profiles set role = 'admin' where id = 'd0000000-0000-4000-8000-000000000002';

-- Staff pass a second factor (docs/auth.md, "MFA (TOTP) and staff"): the demo admin has a verified TOTP
-- factor whose secret is public, so the demo and the tests can compute its codes. Add it to an
-- authenticator app (secret KIRAADEMOSTAFFTOTPKIRAADEMOSTAFF, 6 digits, 30 s) or compute a code
-- with `npm run totp` (README). Local demo only: the seed never reaches production.
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
  updated_at, secret)
values ('fac00000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000002',
  'Démo', 'totp', 'verified', now() - interval '400 days', now() - interval '400 days',
  'KIRAADEMOSTAFFTOTPKIRAADEMOSTAFF');

-- ---------------------------------------------------------------------------------------------
-- Bookings: the demo customer's history and upcoming trips, and the reviewers' rentals
-- ---------------------------------------------------------------------------------------------
select pg_temp.booking('b0000000-0000-4000-8000-000000000001', 'KR-7K3M-9QXD',
  'd0000000-0000-4000-8000-000000000001', 'ca000000-0000-4000-8000-000000000001',
  pg_temp.algiers(-60, 10), pg_temp.algiers(-57, 10),
  '10c00000-0000-4000-8000-000000000021', '10c00000-0000-4000-8000-000000000001',
  'self', '{gps}', '{civil_liability,collision_damage}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000002', 'KR-2D8F-HN4R',
  'd0000000-0000-4000-8000-000000000001', 'ca000000-0000-4000-8000-000000000010',
  pg_temp.algiers(-120, 9), pg_temp.algiers(-113, 18),
  '10c00000-0000-4000-8000-000000000028', '10c00000-0000-4000-8000-000000000028',
  'self', '{full_tank,gps}', '{civil_liability,collision_damage,breakdown_assistance,tires}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000003', 'KR-5TQW-B6YC',
  'd0000000-0000-4000-8000-000000000001', 'ca000000-0000-4000-8000-000000000034',
  pg_temp.algiers(-200, 14), pg_temp.algiers(-197, 14),
  '10c00000-0000-4000-8000-000000000022', '10c00000-0000-4000-8000-000000000002',
  'self', '{}', '{civil_liability}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000004', 'KR-9PGV-1ZEM',
  'd0000000-0000-4000-8000-000000000001', 'ca000000-0000-4000-8000-000000000017',
  pg_temp.algiers(-30, 8), pg_temp.algiers(-28, 8),
  '10c00000-0000-4000-8000-000000000001', '10c00000-0000-4000-8000-000000000001',
  'provided', '{baby_seat}', '{civil_liability}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000005', 'KR-3HXA-8WJS',
  'd0000000-0000-4000-8000-000000000001', 'ca000000-0000-4000-8000-000000000016',
  pg_temp.algiers(10, 10), pg_temp.algiers(14, 10),
  '10c00000-0000-4000-8000-000000000021', '10c00000-0000-4000-8000-000000000023',
  'self', '{second_driver,wifi_hotspot}', '{civil_liability,collision_damage,glass_headlights}', 'reserved');
select pg_temp.booking('b0000000-0000-4000-8000-000000000006', 'KR-6MBE-0RKT',
  'd0000000-0000-4000-8000-000000000001', 'ca000000-0000-4000-8000-000000000012',
  pg_temp.algiers(-90, 12), pg_temp.algiers(-88, 12),
  '10c00000-0000-4000-8000-000000000001', '10c00000-0000-4000-8000-000000000001',
  'self', '{}', '{civil_liability}', 'cancelled');
select pg_temp.booking('b0000000-0000-4000-8000-000000000007', 'KR-4VNC-7QAH',
  'd0000000-0000-4000-8000-000000000001', 'ca000000-0000-4000-8000-000000000029',
  pg_temp.algiers(25, 9), pg_temp.algiers(32, 9),
  '10c00000-0000-4000-8000-000000000006', '10c00000-0000-4000-8000-000000000026',
  'self', '{baby_seat,full_tank}', '{civil_liability,replacement_vehicle}', 'pending');

select pg_temp.booking('b0000000-0000-4000-8000-000000000011', 'KR-8AWD-3FPN',
  'd0000000-0000-4000-8000-000000000003', 'ca000000-0000-4000-8000-000000000001',
  pg_temp.algiers(-45, 11), pg_temp.algiers(-41, 11),
  '10c00000-0000-4000-8000-000000000002', '10c00000-0000-4000-8000-000000000002',
  'self', '{}', '{civil_liability}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000012', 'KR-1CRY-6GTB',
  'd0000000-0000-4000-8000-000000000003', 'ca000000-0000-4000-8000-000000000021',
  pg_temp.algiers(-150, 10), pg_temp.algiers(-143, 10),
  '10c00000-0000-4000-8000-000000000022', '10c00000-0000-4000-8000-000000000025',
  'self', '{gps}', '{civil_liability,collision_damage}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000013', 'KR-0JZH-5VDK',
  'd0000000-0000-4000-8000-000000000004', 'ca000000-0000-4000-8000-000000000038',
  pg_temp.algiers(-75, 7), pg_temp.algiers(-65, 19),
  '10c00000-0000-4000-8000-000000000029', '10c00000-0000-4000-8000-000000000029',
  'provided', '{full_tank,wifi_hotspot}', '{civil_liability,collision_damage,breakdown_assistance,tires}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000014', 'KR-7EPS-2MXQ',
  'd0000000-0000-4000-8000-000000000004', 'ca000000-0000-4000-8000-000000000003',
  pg_temp.algiers(-20, 9), pg_temp.algiers(-17, 9),
  '10c00000-0000-4000-8000-000000000003', '10c00000-0000-4000-8000-000000000023',
  'self', '{}', '{civil_liability}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000015', 'KR-3YBT-9HCW',
  'd0000000-0000-4000-8000-000000000005', 'ca000000-0000-4000-8000-000000000023',
  pg_temp.algiers(-100, 15), pg_temp.algiers(-86, 15),
  '10c00000-0000-4000-8000-000000000021', '10c00000-0000-4000-8000-000000000021',
  'self', '{baby_seat}', '{civil_liability,collision_damage}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000016', 'KR-6QDN-4KAZ',
  'd0000000-0000-4000-8000-000000000005', 'ca000000-0000-4000-8000-000000000035',
  pg_temp.algiers(-250, 10), pg_temp.algiers(-240, 10),
  '10c00000-0000-4000-8000-000000000024', '10c00000-0000-4000-8000-000000000004',
  'self', '{}', '{civil_liability,glass_headlights}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000017', 'KR-2GMR-8TFE',
  'd0000000-0000-4000-8000-000000000003', 'ca000000-0000-4000-8000-000000000044',
  pg_temp.algiers(-35, 16), pg_temp.algiers(-33, 22),
  '10c00000-0000-4000-8000-000000000022', '10c00000-0000-4000-8000-000000000002',
  'provided', '{}', '{civil_liability}', 'completed');
select pg_temp.booking('b0000000-0000-4000-8000-000000000018', 'KR-5WHJ-0NBV',
  'd0000000-0000-4000-8000-000000000004', 'ca000000-0000-4000-8000-000000000008',
  pg_temp.algiers(-12, 10), pg_temp.algiers(-10, 10),
  '10c00000-0000-4000-8000-000000000007', '10c00000-0000-4000-8000-000000000027',
  'self', '{}', '{civil_liability}', 'completed');

-- ---------------------------------------------------------------------------------------------
-- Reviews (the trigger keeps cars.rating_avg / rating_count)
-- ---------------------------------------------------------------------------------------------
insert into public.reviews (id, booking_id, car_id, user_id, rating, comment, created_at)
select r.id, b.id, b.car_id, b.user_id, r.rating, r.comment, b.end_at + interval '1 day'
from (values
  ('e0000000-0000-4000-8000-000000000001'::uuid, 'b0000000-0000-4000-8000-000000000001'::uuid, 5,
    'Voiture impeccable et très économique. Récupérée à l''aéroport sans attendre, je recommande !'),
  ('e0000000-0000-4000-8000-000000000002'::uuid, 'b0000000-0000-4000-8000-000000000002'::uuid, 4,
    'Le Duster a avalé les pistes autour de Ghardaïa sans broncher. Un peu bruyant sur autoroute.'),
  ('e0000000-0000-4000-8000-000000000003'::uuid, 'b0000000-0000-4000-8000-000000000003'::uuid, 5,
    'Hybride très sobre, parfaite pour Oran. Agence accueillante.'),
  ('e0000000-0000-4000-8000-000000000011'::uuid, 'b0000000-0000-4000-8000-000000000011'::uuid, 4,
    'Bonne voiture, propre. La caution a été rendue le jour même.'),
  ('e0000000-0000-4000-8000-000000000012'::uuid, 'b0000000-0000-4000-8000-000000000012'::uuid, 5,
    'سيارة رائعة ومريحة جدا في الطريق إلى تلمسان. شكرا لفريق كراء.'),
  ('e0000000-0000-4000-8000-000000000013'::uuid, 'b0000000-0000-4000-8000-000000000013'::uuid, 5,
    'Dix jours dans le Hoggar avec chauffeur : le Prado est un char d''assaut confortable.'),
  ('e0000000-0000-4000-8000-000000000014'::uuid, 'b0000000-0000-4000-8000-000000000014'::uuid, 4,
    'Simple et efficace pour un déplacement professionnel à Constantine.'),
  ('e0000000-0000-4000-8000-000000000015'::uuid, 'b0000000-0000-4000-8000-000000000015'::uuid, 5,
    'Perfect little car for two weeks visiting family in Algiers. Easy to park everywhere.'),
  ('e0000000-0000-4000-8000-000000000016'::uuid, 'b0000000-0000-4000-8000-000000000016'::uuid, 4,
    'Très confortable, livrée à l''aéroport d''Annaba à l''heure.'),
  ('e0000000-0000-4000-8000-000000000017'::uuid, 'b0000000-0000-4000-8000-000000000017'::uuid, 5,
    'Parfait pour le mariage de ma sœur : neuf places, chauffeur ponctuel.'),
  ('e0000000-0000-4000-8000-000000000018'::uuid, 'b0000000-0000-4000-8000-000000000018'::uuid, 3,
    'Correcte, mais la climatisation avait du mal en plein mois d''août.')
) as r(id, booking_id, rating, comment)
join public.bookings b on b.id = r.booking_id;

-- ---------------------------------------------------------------------------------------------
-- Notifications of the demo customer (staff decisions on their bookings)
-- ---------------------------------------------------------------------------------------------
insert into public.notifications (id, user_id, booking_id, reference, type, is_read, created_at,
  updated_at)
select n.id, b.user_id, b.id, b.reference, n.type, n.is_read, n.at, n.at
from (values
  ('a0000000-0000-4000-8000-000000000001'::uuid, 'b0000000-0000-4000-8000-000000000001'::uuid,
    'booking_completed', true, pg_temp.algiers(-57, 11)),
  ('a0000000-0000-4000-8000-000000000002'::uuid, 'b0000000-0000-4000-8000-000000000004'::uuid,
    'booking_started', true, pg_temp.algiers(-30, 8)),
  ('a0000000-0000-4000-8000-000000000003'::uuid, 'b0000000-0000-4000-8000-000000000004'::uuid,
    'booking_completed', false, pg_temp.algiers(-28, 9)),
  ('a0000000-0000-4000-8000-000000000004'::uuid, 'b0000000-0000-4000-8000-000000000005'::uuid,
    'booking_accepted', false, pg_temp.algiers(-1, 15))
) as n(id, booking_id, type, is_read, at)
join public.bookings b on b.id = n.booking_id;
