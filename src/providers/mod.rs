//! Tables of where each provider's and SDK's requests and responses keep
//! what the guard reads.

pub mod declarations;
pub mod read;
pub mod request_schema;
pub mod stream_events;
pub mod tools;
