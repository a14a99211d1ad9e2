
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  
  "public": {
          Tables: {
            "booking_events": {
                  Row: {
                    "actor": string,"actor_id": string | null,"booking_id": string,"created_at": string,"id": number,"reason": string | null,"status": string
                  }
                  ComputedFields: never
                  Insert: {
                    "actor": string,"actor_id"?: string | null,"booking_id": string,"created_at"?: string,"id"?: never,"reason"?: string | null,"status": string
                  }
                  Update: {
                    "actor"?: string,"actor_id"?: string | null,"booking_id"?: string,"created_at"?: string,"id"?: never,"reason"?: string | null,"status"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "booking_events_actor_id_fkey"
      columns: ["actor_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "booking_events_booking_id_fkey"
      columns: ["booking_id"]
isOneToOne: false
      referencedRelation: "bookings"
      referencedColumns: ["id"]
    }
                  ]
                },"booking_handovers": {
                  Row: {
                    "booking_id": string,"created_at": string,"damage": NonNullable<Json>,"deposit_dzd": number | null,"deposit_kept_dzd": number | null,"deposit_reason": string | null,"deposit_status": string,"fuel_eighths": number,"id": string,"id_document_masked": string | null,"id_document_number": string | null,"id_document_type": string | null,"kind": string,"licence_seen": boolean | null,"notes": string | null,"odometer_km": number,"photos": NonNullable<Json>,"recorded_at": string,"recorded_by": string | null
                  }
                  ComputedFields: never
                  Insert: {
                    "booking_id": string,"created_at"?: string,"damage"?: NonNullable<Json>,"deposit_dzd"?: number | null,"deposit_kept_dzd"?: number | null,"deposit_reason"?: string | null,"deposit_status": string,"fuel_eighths": number,"id": string,"id_document_masked"?: never,"id_document_number"?: string | null,"id_document_type"?: string | null,"kind": string,"licence_seen"?: boolean | null,"notes"?: string | null,"odometer_km": number,"photos"?: NonNullable<Json>,"recorded_at": string,"recorded_by"?: string | null
                  }
                  Update: {
                    "booking_id"?: string,"created_at"?: string,"damage"?: NonNullable<Json>,"deposit_dzd"?: number | null,"deposit_kept_dzd"?: number | null,"deposit_reason"?: string | null,"deposit_status"?: string,"fuel_eighths"?: number,"id"?: string,"id_document_masked"?: never,"id_document_number"?: string | null,"id_document_type"?: string | null,"kind"?: string,"licence_seen"?: boolean | null,"notes"?: string | null,"odometer_km"?: number,"photos"?: NonNullable<Json>,"recorded_at"?: string,"recorded_by"?: string | null
                  }
                  Relationships: [
                    {
      foreignKeyName: "booking_handovers_booking_id_fkey"
      columns: ["booking_id"]
isOneToOne: false
      referencedRelation: "bookings"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "booking_handovers_recorded_by_fkey"
      columns: ["recorded_by"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"booking_refusals": {
                  Row: {
                    "car_id": string | null,"client_key": string | null,"code": string,"created_at": string,"end_at": string,"guest_email": string | null,"guest_phone": string | null,"id": string,"locale": string,"notified": boolean,"reference": string,"request_hash": string,"start_at": string,"user_id": string | null
                  }
                  ComputedFields: never
                  Insert: {
                    "car_id"?: string | null,"client_key"?: string | null,"code": string,"created_at"?: string,"end_at": string,"guest_email"?: string | null,"guest_phone"?: string | null,"id": string,"locale": string,"notified"?: boolean,"reference": string,"request_hash": string,"start_at": string,"user_id"?: string | null
                  }
                  Update: {
                    "car_id"?: string | null,"client_key"?: string | null,"code"?: string,"created_at"?: string,"end_at"?: string,"guest_email"?: string | null,"guest_phone"?: string | null,"id"?: string,"locale"?: string,"notified"?: boolean,"reference"?: string,"request_hash"?: string,"start_at"?: string,"user_id"?: string | null
                  }
                  Relationships: [
                    {
      foreignKeyName: "booking_refusals_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"bookings": {
                  Row: {
                    "additional_requests": string | null,"car_id": string,"confirm_by": string | null,"contact_confirmed_at": string | null,"created_at": string,"driver_option": string,"dropoff_location_id": string,"end_at": string,"extras": (string)[],"flight_document_path": string | null,"from_abroad": boolean,"guest_email": string | null,"guest_name": string | null,"guest_phone": string | null,"id": string,"insurance": (string)[],"license_path": string,"locale": string,"notes": string | null,"payment_method": string,"payment_status": string,"period": unknown,"pickup_location_id": string,"price": NonNullable<Json>,"reference": string,"start_at": string,"status": string,"status_reason": string | null,"total_dzd": number,"updated_at": string,"user_id": string | null
                  }
                  ComputedFields: never
                  Insert: {
                    "additional_requests"?: string | null,"car_id": string,"confirm_by"?: string | null,"contact_confirmed_at"?: string | null,"created_at"?: string,"driver_option": string,"dropoff_location_id": string,"end_at": string,"extras"?: (string)[],"flight_document_path"?: string | null,"from_abroad"?: boolean,"guest_email"?: string | null,"guest_name"?: string | null,"guest_phone"?: string | null,"id": string,"insurance"?: (string)[],"license_path": string,"locale"?: string,"notes"?: string | null,"payment_method"?: string,"payment_status"?: string,"period"?: never,"pickup_location_id": string,"price": NonNullable<Json>,"reference": string,"start_at": string,"status"?: string,"status_reason"?: string | null,"total_dzd": number,"updated_at"?: string,"user_id"?: string | null
                  }
                  Update: {
                    "additional_requests"?: string | null,"car_id"?: string,"confirm_by"?: string | null,"contact_confirmed_at"?: string | null,"created_at"?: string,"driver_option"?: string,"dropoff_location_id"?: string,"end_at"?: string,"extras"?: (string)[],"flight_document_path"?: string | null,"from_abroad"?: boolean,"guest_email"?: string | null,"guest_name"?: string | null,"guest_phone"?: string | null,"id"?: string,"insurance"?: (string)[],"license_path"?: string,"locale"?: string,"notes"?: string | null,"payment_method"?: string,"payment_status"?: string,"period"?: never,"pickup_location_id"?: string,"price"?: NonNullable<Json>,"reference"?: string,"start_at"?: string,"status"?: string,"status_reason"?: string | null,"total_dzd"?: number,"updated_at"?: string,"user_id"?: string | null
                  }
                  Relationships: [
                    {
      foreignKeyName: "bookings_car_id_fkey"
      columns: ["car_id"]
isOneToOne: false
      referencedRelation: "cars"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "bookings_dropoff_location_id_fkey"
      columns: ["dropoff_location_id"]
isOneToOne: false
      referencedRelation: "locations"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "bookings_pickup_location_id_fkey"
      columns: ["pickup_location_id"]
isOneToOne: false
      referencedRelation: "locations"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "bookings_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"car_blocks": {
                  Row: {
                    "car_id": string,"created_at": string,"created_by": string | null,"end_at": string,"id": string,"period": unknown,"reason": string,"start_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "car_id": string,"created_at"?: string,"created_by"?: string | null,"end_at": string,"id"?: string,"period"?: never,"reason": string,"start_at": string
                  }
                  Update: {
                    "car_id"?: string,"created_at"?: string,"created_by"?: string | null,"end_at"?: string,"id"?: string,"period"?: never,"reason"?: string,"start_at"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "car_blocks_car_id_fkey"
      columns: ["car_id"]
isOneToOne: false
      referencedRelation: "cars"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "car_blocks_created_by_fkey"
      columns: ["created_by"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"cars": {
                  Row: {
                    "active": boolean,"body": string,"created_at": string,"daily_rate_dzd": number,"deposit_dzd": number,"description": NonNullable<Json>,"doors": number,"drive": string,"engine": string,"exterior_color": string,"features": (string)[],"fuel": string,"id": string,"images": (string)[],"interior_color": string,"make": string,"mileage_km": number,"model": string,"name": string,"passengers": number,"rating_avg": number | null,"rating_count": number,"seats": number,"slug": string,"transmission": string,"updated_at": string,"year": number
                  }
                  ComputedFields: never
                  Insert: {
                    "active"?: boolean,"body": string,"created_at"?: string,"daily_rate_dzd": number,"deposit_dzd": number,"description": NonNullable<Json>,"doors": number,"drive": string,"engine": string,"exterior_color": string,"features"?: (string)[],"fuel": string,"id"?: string,"images"?: (string)[],"interior_color": string,"make": string,"mileage_km": number,"model": string,"name": string,"passengers": number,"rating_avg"?: number | null,"rating_count"?: number,"seats": number,"slug": string,"transmission": string,"updated_at"?: string,"year": number
                  }
                  Update: {
                    "active"?: boolean,"body"?: string,"created_at"?: string,"daily_rate_dzd"?: number,"deposit_dzd"?: number,"description"?: NonNullable<Json>,"doors"?: number,"drive"?: string,"engine"?: string,"exterior_color"?: string,"features"?: (string)[],"fuel"?: string,"id"?: string,"images"?: (string)[],"interior_color"?: string,"make"?: string,"mileage_km"?: number,"model"?: string,"name"?: string,"passengers"?: number,"rating_avg"?: number | null,"rating_count"?: number,"seats"?: number,"slug"?: string,"transmission"?: string,"updated_at"?: string,"year"?: number
                  }
                  Relationships: [
                    
                  ]
                },"extras": {
                  Row: {
                    "active": boolean,"code": string,"created_at": string,"name": NonNullable<Json>,"per": string,"price_dzd": number,"sort_order": number,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "active"?: boolean,"code": string,"created_at"?: string,"name": NonNullable<Json>,"per": string,"price_dzd": number,"sort_order"?: number,"updated_at"?: string
                  }
                  Update: {
                    "active"?: boolean,"code"?: string,"created_at"?: string,"name"?: NonNullable<Json>,"per"?: string,"price_dzd"?: number,"sort_order"?: number,"updated_at"?: string
                  }
                  Relationships: [
                    
                  ]
                },"insurance_options": {
                  Row: {
                    "active": boolean,"code": string,"created_at": string,"included": boolean,"name": NonNullable<Json>,"price_dzd_per_day": number,"sort_order": number,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "active"?: boolean,"code": string,"created_at"?: string,"included"?: boolean,"name": NonNullable<Json>,"price_dzd_per_day": number,"sort_order"?: number,"updated_at"?: string
                  }
                  Update: {
                    "active"?: boolean,"code"?: string,"created_at"?: string,"included"?: boolean,"name"?: NonNullable<Json>,"price_dzd_per_day"?: number,"sort_order"?: number,"updated_at"?: string
                  }
                  Relationships: [
                    
                  ]
                },"locations": {
                  Row: {
                    "active": boolean,"closed_dates": (string)[],"created_at": string,"delivery_fee_dzd": number,"iata": string | null,"id": string,"kind": string,"name": NonNullable<Json>,"opening_hours": NonNullable<Json>,"sort_order": number,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "active"?: boolean,"closed_dates"?: (string)[],"created_at"?: string,"delivery_fee_dzd"?: number,"iata"?: string | null,"id"?: string,"kind": string,"name": NonNullable<Json>,"opening_hours"?: NonNullable<Json>,"sort_order"?: number,"updated_at"?: string
                  }
                  Update: {
                    "active"?: boolean,"closed_dates"?: (string)[],"created_at"?: string,"delivery_fee_dzd"?: number,"iata"?: string | null,"id"?: string,"kind"?: string,"name"?: NonNullable<Json>,"opening_hours"?: NonNullable<Json>,"sort_order"?: number,"updated_at"?: string
                  }
                  Relationships: [
                    
                  ]
                },"notifications": {
                  Row: {
                    "booking_id": string | null,"created_at": string,"id": string,"is_read": boolean,"reason": string | null,"reason_code": string | null,"reference": string | null,"type": string,"updated_at": string,"user_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "booking_id"?: string | null,"created_at"?: string,"id"?: string,"is_read"?: boolean,"reason"?: string | null,"reason_code"?: string | null,"reference"?: string | null,"type": string,"updated_at"?: string,"user_id": string
                  }
                  Update: {
                    "booking_id"?: string | null,"created_at"?: string,"id"?: string,"is_read"?: boolean,"reason"?: string | null,"reason_code"?: string | null,"reference"?: string | null,"type"?: string,"updated_at"?: string,"user_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "notifications_booking_id_fkey"
      columns: ["booking_id"]
isOneToOne: false
      referencedRelation: "bookings"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"profiles": {
                  Row: {
                    "address": string | null,"age": number | null,"created_at": string,"full_name": string,"id": string,"phone": string | null,"role": string,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "address"?: string | null,"age"?: number | null,"created_at"?: string,"full_name"?: string,"id": string,"phone"?: string | null,"role"?: string,"updated_at"?: string
                  }
                  Update: {
                    "address"?: string | null,"age"?: number | null,"created_at"?: string,"full_name"?: string,"id"?: string,"phone"?: string | null,"role"?: string,"updated_at"?: string
                  }
                  Relationships: [
                    
                  ]
                },"push_subscriptions": {
                  Row: {
                    "auth": string,"booking_id": string | null,"created_at": string,"endpoint": string,"id": string,"locale": string,"p256dh": string,"updated_at": string,"user_id": string | null
                  }
                  ComputedFields: never
                  Insert: {
                    "auth": string,"booking_id"?: string | null,"created_at"?: string,"endpoint": string,"id"?: string,"locale"?: string,"p256dh": string,"updated_at"?: string,"user_id"?: string | null
                  }
                  Update: {
                    "auth"?: string,"booking_id"?: string | null,"created_at"?: string,"endpoint"?: string,"id"?: string,"locale"?: string,"p256dh"?: string,"updated_at"?: string,"user_id"?: string | null
                  }
                  Relationships: [
                    {
      foreignKeyName: "push_subscriptions_booking_id_fkey"
      columns: ["booking_id"]
isOneToOne: false
      referencedRelation: "bookings"
      referencedColumns: ["id"]
    }
                  ]
                },"reviews": {
                  Row: {
                    "booking_id": string,"car_id": string,"comment": string | null,"created_at": string,"id": string,"rating": number,"user_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "booking_id": string,"car_id": string,"comment"?: string | null,"created_at"?: string,"id"?: string,"rating": number,"user_id": string
                  }
                  Update: {
                    "booking_id"?: string,"car_id"?: string,"comment"?: string | null,"created_at"?: string,"id"?: string,"rating"?: number,"user_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "reviews_booking_fkey"
      columns: ["booking_id","car_id","user_id"]
isOneToOne: false
      referencedRelation: "bookings"
      referencedColumns: ["id","car_id","user_id"]
    },{
      foreignKeyName: "reviews_car_id_fkey"
      columns: ["car_id"]
isOneToOne: false
      referencedRelation: "cars"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "reviews_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"settings": {
                  Row: {
                    "booking_horizon_days": number,"currency": string,"driver_per_day_dzd": number,"guest_hold_minutes": number,"id": number,"lookup_failures_per_address": number,"lookup_failures_per_reference": number,"max_bookings_per_hour": number,"max_code_mails_per_address_day": number,"max_code_mails_per_address_hour": number,"max_fleet_share_per_address": number,"max_guest_upload_mb_per_address_hour": number,"max_mails_per_address_day": number,"max_mails_per_address_hour": number,"max_pending_per_account": number,"max_pending_per_contact": number,"max_pending_per_domain": number,"max_pending_private_per_address": number,"max_unconfirmed_per_address_hour": number,"min_age": number,"site_url": string | null,"time_zone": string,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "booking_horizon_days"?: number,"currency"?: string,"driver_per_day_dzd": number,"guest_hold_minutes"?: number,"id"?: number,"lookup_failures_per_address"?: number,"lookup_failures_per_reference"?: number,"max_bookings_per_hour"?: number,"max_code_mails_per_address_day"?: number,"max_code_mails_per_address_hour"?: number,"max_fleet_share_per_address"?: number,"max_guest_upload_mb_per_address_hour"?: number,"max_mails_per_address_day"?: number,"max_mails_per_address_hour"?: number,"max_pending_per_account"?: number,"max_pending_per_contact"?: number,"max_pending_per_domain"?: number,"max_pending_private_per_address"?: number,"max_unconfirmed_per_address_hour"?: number,"min_age"?: number,"site_url"?: string | null,"time_zone"?: string,"updated_at"?: string
                  }
                  Update: {
                    "booking_horizon_days"?: number,"currency"?: string,"driver_per_day_dzd"?: number,"guest_hold_minutes"?: number,"id"?: number,"lookup_failures_per_address"?: number,"lookup_failures_per_reference"?: number,"max_bookings_per_hour"?: number,"max_code_mails_per_address_day"?: number,"max_code_mails_per_address_hour"?: number,"max_fleet_share_per_address"?: number,"max_guest_upload_mb_per_address_hour"?: number,"max_mails_per_address_day"?: number,"max_mails_per_address_hour"?: number,"max_pending_per_account"?: number,"max_pending_per_contact"?: number,"max_pending_per_domain"?: number,"max_pending_private_per_address"?: number,"max_unconfirmed_per_address_hour"?: number,"min_age"?: number,"site_url"?: string | null,"time_zone"?: string,"updated_at"?: string
                  }
                  Relationships: [
                    
                  ]
                }
          }
          Views: {
            "car_reviews": {
                  Row: {
                    "author_name": string | null,"car_id": string | null,"comment": string | null,"created_at": string | null,"id": string | null,"rating": number | null
                  }
                  ComputedFields: never
                  Insert: {
                           "author_name"?: string | null,"car_id"?: string | null,"comment"?: string | null,"created_at"?: string | null,"id"?: string | null,"rating"?: number | null
                         }
                        Update: {
                           "author_name"?: string | null,"car_id"?: string | null,"comment"?: string | null,"created_at"?: string | null,"id"?: string | null,"rating"?: number | null
                         }
                        Relationships: [
                    
                  ]
                }
          }
          Functions: {
            "cancel_booking":
{ Args: { "booking_id": string }; Returns: Json
                           },
"car_busy_periods":
{ Args: { "from": string,"to": string }; Returns: {
              "car_id": string,"end_at": string,"start_at": string
            }[]
                           },
"claim_guest_bookings":
{ Args: { "items": Json }; Returns: Json
                           },
"confirm_guest_booking":
{ Args: { "code": string,"reference": string }; Returns: Json
                           },
"create_booking":
{ Args: { "p": Json }; Returns: Json
                           },
"edge_claim_mail":
{ Args: { "after_writers"?: boolean,"batch"?: number,"hold"?: boolean,"lease_seconds"?: number,"sender"?: string }; Returns: Json[]
                           },
"edge_claim_push":
{ Args: { "batch"?: number,"lease_seconds"?: number }; Returns: Json[]
                           },
"edge_hold_mail":
{ Args: { "sender": string }; Returns: boolean
                           },
"edge_record_file_check":
{ Args: { "bucket": string,"detected_type"?: string,"file_name": string,"reason"?: string,"verdict": string }; Returns: Json
                           },
"edge_release_mail":
{ Args: { "sender"?: string }; Returns: undefined
                           },
"edge_settle_mail":
{ Args: { "error"?: string,"mail_id": number,"permanent"?: boolean,"provider_id"?: string }; Returns: undefined
                           },
"edge_settle_mails":
{ Args: { "results": Json }; Returns: undefined
                           },
"edge_settle_push":
{ Args: { "error"?: string,"outcome": string,"push_id": number,"status_code"?: number }; Returns: undefined
                           },
"edge_stale_uploads":
{ Args: { "after"?: Json,"batch"?: number }; Returns: Json[]
                           },
"edge_unchecked_files":
{ Args: { "batch"?: number,"bucket"?: string,"file_name"?: string }; Returns: Json[]
                           },
"find_guest_booking":
{ Args: { "contact": string,"reference": string }; Returns: Json
                           },
"find_guest_bookings":
{ Args: { "items": Json }; Returns: Json
                           },
"hook_before_user_created":
{ Args: { "event": Json }; Returns: Json
                           },
"hook_password_verification_attempt":
{ Args: { "event": Json }; Returns: Json
                           },
"is_admin":
{ Args: Record<PropertyKey, never>; Returns: boolean
                           },
"quote_booking":
{ Args: { "p": Json }; Returns: Json
                           },
"report_refused_booking":
{ Args: { "p": Json }; Returns: Json
                           },
"request_client_address":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"resend_guest_confirmation":
{ Args: { "booking_id": string }; Returns: Json
                           },
"staff_block_car":
{ Args: { "car_id": string,"end_at": string,"reason": string,"start_at": string }; Returns: Json
                           },
"staff_block_collisions":
{ Args: { "car_id": string,"end_at": string,"start_at": string }; Returns: {
              "from_at": string,"holds": boolean,"id": string,"kind": string,"reason": string,"reference": string,"status": string,"to_at": string
            }[]
                           },
"staff_booking_handovers":
{ Args: { "booking_id": string }; Returns: Json[]
                           },
"staff_confirm_guest_contact":
{ Args: { "booking_id": string }; Returns: Json
                           },
"staff_customer_contacts":
{ Args: { "user_ids": (string)[] }; Returns: {
              "email": string,"full_name": string,"id": string,"phone": string
            }[]
                           },
"staff_extend_confirmation":
{ Args: { "booking_id": string,"minutes": number }; Returns: Json
                           },
"staff_pending_sources":
{ Args: Record<PropertyKey, never>; Returns: {
              "car_days": number,"first_at": string,"kind": string,"last_at": string,"pending": number,"refs": (string)[],"source": string,"unconfirmed": number
            }[]
                           },
"staff_record_handover":
{ Args: { "p": Json }; Returns: Json
                           },
"staff_reject_source":
{ Args: { "kind": string,"reason": string,"source": string }; Returns: number
                           },
"staff_set_booking_status":
{ Args: { "booking_id": string,"reason": string,"status": string }; Returns: Json
                           },
"staff_set_car_pictures":
{ Args: { "car_id": string,"pictures": (string)[] }; Returns: Json
                           },
"staff_set_driver_rate":
{ Args: { "driver_per_day_dzd": number }; Returns: Json
                           },
"staff_set_opening_hours":
{ Args: { "closed_dates": (string)[],"location_id": string,"opening_hours": Json }; Returns: Json
                           },
"staff_unblock_car":
{ Args: { "block_id": string }; Returns: Json
                           },
"staff_update_extra":
{ Args: { "code": string,"name"?: Json,"price_dzd": number }; Returns: Json
                           },
"staff_update_insurance":
{ Args: { "code": string,"name"?: Json,"price_dzd_per_day": number }; Returns: Json
                           },
"staff_update_location":
{ Args: { "delivery_fee_dzd": number,"location_id": string,"name"?: Json }; Returns: Json
                           },
"submit_review":
{ Args: { "booking_id": string,"comment": string,"rating": number }; Returns: Json
                           },
"subscribe_guest_push":
{ Args: { "auth": string,"contact": string,"endpoint": string,"locale"?: string,"p256dh": string,"reference": string }; Returns: Json
                           },
"unsubscribe_guest_push":
{ Args: { "endpoint": string }; Returns: number
                           }
          }
          Enums: {
            [_ in never]: never
          }
          CompositeTypes: {
            [_ in never]: never
          }
        }
}

type DatabaseWithoutInternals = Omit<Database, '__InternalSupabase'>

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
  ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
      Row: infer R
    }
    ? R
    : never
  : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Insert: infer I
    }
    ? I
    : never
  : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Update: infer U
    }
    ? U
    : never
  : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
  ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
  : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
  ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
  : never

export const Constants = {
  "public": {
          Enums: {
            
          }
        }
} as const
