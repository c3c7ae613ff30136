//! The envelope rules: which members make which kind of message, and what
//! each member may hold under each revision. No backend in sight: this reads
//! only the shallow tape and the message text.
//!
//! When a message breaks several rules, the one reported is the first in
//! this order: a repeated member name, no envelope member at all, `jsonrpc`,
//! members of two kinds, then the kind's own members (`id` before `method`
//! before `params`; `id` before `result`; `id` before `error`).

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::num::NonZeroU32;

use crate::envelope::{
    Envelope, ErrorObject, ErrorResponse, Id, Message, Notification, RawJson, Request, ResultResponse,
};
use crate::envelope::{Error, Parsed};
use crate::fault::{Fault, Reason};
use crate::json::number;
use crate::json::string;
use crate::json::text::JsonStr;
use crate::revision::Revision;
use crate::rules::names::{self, ENVELOPE_MEMBERS, ERROR_MEMBERS};
use crate::rules::repeats::{self, NameTable, Pairwise};
use crate::span;
use crate::tape::{self, Node, NodeKind, Tape};

/// A member, by the index of its value node: its name is the node before
/// (a name is always a leaf). Held as a non-zero number (a value is never
/// the tape's first node), so that an absent member costs no more room:
/// the table of envelope members [`Classifier::scan_members`] fills and
/// returns is 24 bytes.
#[derive(Clone, Copy, Debug)]
struct Member(NonZeroU32);

impl Member {
    /// Tape indices fit in 32 bits, as offsets do (see `tape::narrow`).
    #[inline]
    fn at(name: usize) -> Member {
        Member(NonZeroU32::MIN.saturating_add(name as u32))
    }

    #[inline]
    fn name(self) -> usize {
        self.0.get() as usize - 1
    }

    #[inline]
    fn value(self) -> usize {
        self.0.get() as usize
    }
}

/// The envelope members of one object (first occurrence of each).
#[derive(Default, Debug)]
struct Members {
    jsonrpc: Option<Member>,
    id: Option<Member>,
    method: Option<Member>,
    params: Option<Member>,
    result: Option<Member>,
    error: Option<Member>,
}

pub(crate) struct Classifier<'a, 't> {
    text: &'a str,
    tape: &'t Tape,
    revision: Revision,
    /// The table that finds repeated names in large objects, kept by the
    /// parser so a warm parser does not allocate.
    names: &'t mut NameTable,
}

impl<'a, 't> Classifier<'a, 't> {
    pub(crate) fn new(text: &'a str, tape: &'t Tape, revision: Revision, names: &'t mut NameTable) -> Self {
        Classifier { text, tape, revision, names }
    }

    /// The envelope of a message whose tape is complete and valid.
    pub(crate) fn envelope(&mut self) -> Parsed<'a> {
        let Some(top) = self.tape.get(0) else {
            return Err(Error::new(Fault::new(Reason::Empty, 0), None));
        };
        match top.kind {
            NodeKind::Object => self.message(0).map(Envelope::Single),
            NodeKind::Array if !self.revision.allows_batches() => {
                Err(Error::new(Fault::new(Reason::BatchNotAllowed, top.start), None))
            }
            NodeKind::Array => {
                let tape = self.tape;
                // The tape stopped taking items at the limit (every
                // tokeniser alike), so an over-long batch cost no more.
                if let Some(past) = tape.overflow() {
                    return Err(Error::new(Fault::new(Reason::BatchTooLong, past), None));
                }
                let len = tape.children(0).count();
                if len == 0 {
                    return Err(Error::new(Fault::new(Reason::EmptyBatch, top.start), None));
                }
                let mut items = Vec::with_capacity(len);
                items.extend(tape.children(0).map(|item| self.message(item)));
                Ok(Envelope::Batch(items))
            }
            _ => Err(Error::new(Fault::new(Reason::NotAnObject, top.start), None)),
        }
    }

    fn node(&self, index: usize) -> Node {
        // Indices come from the tape itself; a miss would be a bug: loud
        // in debug builds (the fuzz builds), an empty null in release.
        debug_assert!(self.tape.get(index).is_some(), "node {index} is not on the tape");
        self.tape.get(index).unwrap_or(Node {
            kind: NodeKind::Null,
            start: 0,
            end: 0,
            next: index + 1,
            expanded: false,
        })
    }

    fn raw(&self, index: usize) -> &'a str {
        let node = self.node(index);
        span::text(self.text, node.start..node.end)
    }

    /// The bytes of `node`, as [`Classifier::raw`] gives its text: for
    /// what reads bytes, without the text's checks of character boundaries.
    #[inline]
    fn raw_bytes(&self, node: Node) -> &'a [u8] {
        span::within(self.text.as_bytes(), node.start..node.end)
    }

    #[inline]
    fn inner_bytes(&self, index: usize) -> &'a [u8] {
        span::within(self.text.as_bytes(), self.node(index).inside_quotes())
    }

    /// Whether the string node at `index` stands for `expected` (which has
    /// no backslash). Every escape is longer than what it stands for, so
    /// only a string longer than `expected` can match through escapes: the
    /// bytes decide the rest, most on their length alone. Inlined, so that
    /// the comparison with a constant needs no call to memcmp.
    #[inline(always)]
    fn string_is(&self, index: usize, expected: &str) -> bool {
        let inner = self.inner_bytes(index);
        match inner.len().cmp(&expected.len()) {
            core::cmp::Ordering::Less => false,
            core::cmp::Ordering::Equal => inner == expected.as_bytes(),
            core::cmp::Ordering::Greater => string::has_backslash(inner) && self.name(index).eq_str(expected),
        }
    }

    /// Whether the string node at `index` stands for `expected` (which has
    /// no backslash) through escapes: [`Classifier::string_is`] for a string
    /// already known not to be `expected` spelled plainly.
    #[inline(always)]
    fn escaped_is(&self, index: usize, expected: &str) -> bool {
        let inner = self.inner_bytes(index);
        inner.len() > expected.len() && string::has_backslash(inner) && self.name(index).eq_str(expected)
    }

    fn name(&self, index: usize) -> JsonStr<'a> {
        JsonStr::new(self.raw(index))
    }

    /// The members of the expanded object at `object`, each by its name (its
    /// value is the node after).
    fn members(&self, object: usize) -> impl Iterator<Item = Member> + use<'_, 'a, 't> {
        tape::members(self.tape, object).map(|(name, _)| Member::at(name))
    }

    #[inline(always)]
    fn message(&mut self, object: usize) -> Result<Message<'a>, Error<'a>> {
        let start = self.node(object).start;
        if self.node(object).kind != NodeKind::Object {
            return Err(Error::new(Fault::new(Reason::NotAnObject, start), None));
        }
        let mut found = [None; 6];
        let duplicate = self.scan_members(object, &mut found, ENVELOPE_MEMBERS, names::envelope_slot);
        let [jsonrpc, id, method, params, result, error] = found;
        let m = Members { jsonrpc, id, method, params, result, error };

        // The id, read once: what the kinds below need, and the id to answer
        // with if anything else is wrong (not when the id itself is repeated).
        // The answer's copy is made only on a fault.
        let id_read = m.id.map(|id| (id, self.id(id.value())));
        let id_repeated = duplicate.is_some_and(|name| self.string_is(name, "id"));
        let recovered = || match &id_read {
            Some((_, Ok(Some(id)))) if !id_repeated => Some(id.clone()),
            _ => None,
        };
        // A broken response gets no answer (see `Reply`): nobody waits for one.
        let response = m.method.is_none() && (m.result.is_some() || m.error.is_some());
        let fail = |reason: Reason, at: usize| Error::new(Fault::new(reason, at), recovered()).of_response(response);

        if let Some(name) = duplicate {
            return Err(fail(Reason::DuplicateMember, self.node(name).start));
        }
        if m.jsonrpc.is_none() && m.id.is_none() && m.method.is_none() && m.result.is_none() && m.error.is_none() {
            return Err(fail(Reason::BarePayload, start));
        }
        match m.jsonrpc {
            None => return Err(fail(Reason::MissingJsonrpc, start)),
            Some(v) if !self.is_version(v.value()) => {
                return Err(fail(Reason::InvalidJsonrpc, self.node(v.value()).start));
            }
            Some(_) => {}
        }
        if let Some(second) = second_by_position([m.method, m.result, m.error]) {
            return Err(fail(Reason::ConflictingMembers, self.node(second.name()).start));
        }

        // What is wrong with the id for a request or a result, if anything.
        let id_fault = match &id_read {
            Some((id, Ok(None))) if !self.revision.allows_null_request_id() => {
                Some((Reason::NullId, self.node(id.value()).start))
            }
            Some((_, Err(at))) => Some((Reason::InvalidId, *at)),
            _ => None,
        };

        if let Some(method) = m.method {
            if let Some((reason, at)) = id_fault {
                return Err(fail(reason, at));
            }
            let method = match self.string(method.value()) {
                Some(name) => name,
                None => return Err(fail(Reason::InvalidMethod, self.node(method.value()).start)),
            };
            let params = match m.params {
                Some(p) => Some(self.params(p.value()).map_err(|fault| fail(fault.reason, fault.offset))?),
                None => None,
            };
            return Ok(match id_read {
                None => Message::Notification(Notification { method, params }),
                // Matched rather than `unwrap_or(Id::Null)`, whose unused
                // default is dropped through a call.
                Some((_, Ok(Some(id)))) => Message::Request(Request { id, method, params }),
                Some(_) => Message::Request(Request { id: Id::Null, method, params }),
            });
        }

        if let Some(result) = m.result {
            if id_read.is_none() {
                return Err(fail(Reason::MissingId, start));
            }
            if let Some((reason, at)) = id_fault {
                return Err(fail(reason, at));
            }
            let (result, result_type) =
                self.result(result.value()).map_err(|fault| fail(fault.reason, fault.offset))?;
            let id = match id_read {
                Some((_, Ok(Some(id)))) => id,
                _ => Id::Null,
            };
            return Ok(Message::Result(ResultResponse { id, result, result_type }));
        }

        if let Some(error) = m.error {
            match &id_read {
                None if !self.revision.allows_error_without_id() => return Err(fail(Reason::MissingId, start)),
                Some((_, Err(at))) => return Err(fail(Reason::InvalidId, *at)),
                _ => {}
            }
            let error = self.error_object(error.value()).map_err(|fault| fail(fault.reason, fault.offset))?;
            let id = id_read.and_then(|(_, read)| read.ok().flatten());
            return Ok(Message::Error(ErrorResponse { id, error }));
        }

        Err(fail(Reason::IncompleteEnvelope, start))
    }

    /// `Ok(None)` for `null`; `Err(offset)` for anything but a string or an
    /// integer.
    #[inline(always)]
    fn id(&self, value: usize) -> Result<Option<Id<'a>>, usize> {
        let node = self.node(value);
        match node.kind {
            NodeKind::String => Ok(Some(Id::Str(self.name(value).decode()))),
            NodeKind::Number => number::integer(self.raw_bytes(node)).map(|n| Some(Id::Int(n))).ok_or(node.start),
            NodeKind::Null => Ok(None),
            _ => Err(node.start),
        }
    }

    /// The text of the string node at `value`, decoded; `None` for any
    /// other node. The usual string, with no escape, comes back from
    /// [`Classifier::plain_string`] in two registers and is made a `Cow`
    /// here: a `Cow` returned from a call comes back through memory and was
    /// read back in wider loads than wrote it, which wait (see
    /// [`Classifier::scan_members`]).
    #[inline(always)]
    fn string(&self, value: usize) -> Option<Cow<'a, str>> {
        match self.plain_string(value) {
            Some(text) => Some(Cow::Borrowed(text)),
            None => self.decoded_string(value),
        }
    }

    /// The text of the string node at `value` if it holds no escape;
    /// `None` for an escaped string and any other node.
    #[inline(never)]
    fn plain_string(&self, value: usize) -> Option<&'a str> {
        let node = self.node(value);
        if node.kind != NodeKind::String {
            return None;
        }
        let inner = span::text(self.text, node.inside_quotes());
        (!string::has_backslash(inner.as_bytes())).then_some(inner)
    }

    /// [`Classifier::string`] for what [`Classifier::plain_string`] does
    /// not take: an escaped string (which it has already searched for its
    /// backslash), or no string at all.
    #[inline(never)]
    fn decoded_string(&self, value: usize) -> Option<Cow<'a, str>> {
        let node = self.node(value);
        if node.kind != NodeKind::String {
            return None;
        }
        let inner = span::text(self.text, node.inside_quotes());
        Some(JsonStr::from_inner(inner, true).decode())
    }

    /// Whether the value at `value` is the string `2.0`: spelled plainly,
    /// five bytes with its quotes, compared at once; escaped, longer.
    #[inline(always)]
    fn is_version(&self, value: usize) -> bool {
        let node = self.node(value);
        node.kind == NodeKind::String && (self.raw_bytes(node) == b"\"2.0\"" || self.escaped_is(value, "2.0"))
    }

    #[inline(always)]
    fn params(&self, value: usize) -> Result<RawJson<'a>, Fault> {
        let node = self.node(value);
        match node.kind {
            NodeKind::Object => Ok(RawJson::new(self.raw(value))),
            NodeKind::Array if self.revision.allows_array_params() => Ok(RawJson::new(self.raw(value))),
            _ if self.revision.allows_array_params() => Err(Fault::new(Reason::ParamsNotStructured, node.start)),
            _ => Err(Fault::new(Reason::ParamsNotObject, node.start)),
        }
    }

    fn result(&self, value: usize) -> Result<(RawJson<'a>, Option<Cow<'a, str>>), Fault> {
        let node = self.node(value);
        let raw = RawJson::new(self.raw(value));
        if node.kind != NodeKind::Object {
            if self.revision.allows_any_result() {
                return Ok((raw, None));
            }
            return Err(Fault::new(Reason::ResultNotObject, node.start));
        }
        if !self.revision.has_result_type() {
            return Ok((raw, None));
        }
        // A repeated resultType is read last-wins, as JSON.parse and most
        // JSON libraries do; the rules check repeats only in the envelope.
        // Spelled plainly, the name is known by its length and one word; only
        // a longer name can be an escaped spelling.
        let bytes = self.text.as_bytes();
        let plain = "resultType".len() + 2;
        let result_type = tape::members(self.tape, value)
            .filter(|&(index, name)| {
                let len = name.end.wrapping_sub(name.start);
                (len == plain && names::is_result_type(bytes, name))
                    || (len > plain && self.escaped_is(index, "resultType"))
            })
            .last()
            .map(|(index, _)| Member::at(index));
        match result_type {
            None => Ok((raw, None)),
            Some(m) => match self.string(m.value()) {
                Some(s) => Ok((raw, Some(s))),
                None => Err(Fault::new(Reason::ResultTypeNotString, self.node(m.value()).start)),
            },
        }
    }

    fn error_object(&mut self, value: usize) -> Result<ErrorObject<'a>, Fault> {
        let node = self.node(value);
        if node.kind != NodeKind::Object {
            return Err(Fault::new(Reason::ErrorNotObject, node.start));
        }
        let mut found = [None; 3];
        let duplicate = self.scan_members(value, &mut found, ERROR_MEMBERS, names::error_slot);
        let [code, message, data] = found;
        if let Some(name) = duplicate {
            return Err(Fault::new(Reason::DuplicateMember, self.node(name).start));
        }
        let (code, message, data) = (code.map(|m| m.value()), message.map(|m| m.value()), data.map(|m| m.value()));
        let code = code.ok_or(Fault::new(Reason::MissingErrorCode, node.start))?;
        let code_node = self.node(code);
        let code = match code_node.kind {
            NodeKind::Number => number::integer(self.raw_bytes(code_node)),
            _ => None,
        }
        .ok_or(Fault::new(Reason::InvalidErrorCode, code_node.start))?;
        let message = message.ok_or(Fault::new(Reason::MissingErrorMessage, node.start))?;
        let message = self.string(message).ok_or(Fault::new(Reason::InvalidErrorMessage, self.node(message).start))?;
        let data = data.map(|d| RawJson::new(self.raw(d)));
        Ok(ErrorObject { code, message, data })
    }

    /// One pass over the members of the expanded object at `object`: the
    /// first member named after each of `wanted`, and the name node of the
    /// first member (in document order) whose name an earlier member has.
    /// `slot_of` names the slot of a name spelled plainly by its bytes (the
    /// common case: see [`names`]); escaped names are decoded. A repeat of a
    /// wanted name is seen in its slot; other names are compared pairwise
    /// in small objects, and large objects use a hash table (linear, and
    /// never worse than O(n log n)).
    ///
    /// The members go into the caller's `found`, which is read slot by
    /// slot: returned by value, the table was copied in 16-byte loads from
    /// the 4-byte stores that had just filled it, and a load the store
    /// buffer cannot forward waits for them to retire (docs/benchmarks.md,
    /// "Why the code is as it is").
    #[inline(always)]
    fn scan_members<const K: usize>(
        &mut self,
        object: usize,
        found: &mut [Option<Member>; K],
        wanted: [&str; K],
        slot_of: impl Fn(&[u8], Node) -> Option<usize>,
    ) -> Option<usize> {
        // The tape bounds the count (two nodes a member at least); only when
        // that bound is large are the members counted.
        let bound = self.node(object).next.saturating_sub(object + 1) / 2;
        if repeats::needs_table(bound) {
            return self.scan_large_members(object, found, wanted, slot_of);
        }
        self.scan_small_members(object, found, wanted, slot_of)
    }

    /// [`Classifier::scan_members`] in an object of at most
    /// [`repeats::PAIRWISE_MEMBERS`] members: the usual envelope, kept to
    /// one load and one comparison a wanted name.
    #[inline(always)]
    fn scan_small_members<const K: usize>(
        &self,
        object: usize,
        found: &mut [Option<Member>; K],
        wanted: [&str; K],
        slot_of: impl Fn(&[u8], Node) -> Option<usize>,
    ) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let mut repeated = None;
        // Made at the first other name: most envelopes have none.
        let mut others = None;
        for (index, node) in tape::members(self.tape, object) {
            let slot = match slot_of(bytes, node) {
                Some(slot) => Some(slot),
                None => self.escaped_slot(node, &wanted),
            };
            match slot.and_then(|slot| found.get_mut(slot)) {
                Some(first @ None) => *first = Some(Member::at(index)),
                Some(Some(_)) => {
                    repeated = repeated.or(Some(index));
                }
                None if repeated.is_none() && self.repeats_an_other(&mut others, index, node) => {
                    repeated = Some(index);
                }
                None => {}
            }
        }
        repeated
    }

    /// The slot in `wanted` of a name no slot was found for by its bytes:
    /// only an escaped name can have one.
    #[inline(never)]
    fn escaped_slot<const K: usize>(&self, node: Node, wanted: &[&str; K]) -> Option<usize> {
        self.name_between_quotes(node).escaped_slot(wanted)
    }

    /// Whether the name node at `index`, wanted by no slot, repeats an
    /// earlier such name of a small object (`others` holds them).
    #[inline(never)]
    fn repeats_an_other(&self, others: &mut Option<Pairwise>, index: usize, node: Node) -> bool {
        let name = self.name_between_quotes(node);
        others.get_or_insert_default().see(index, |earlier| self.name(earlier).same_as(name))
    }

    /// The member name `node` as text, read between its quotes.
    #[inline(always)]
    fn name_between_quotes(&self, node: Node) -> JsonStr<'a> {
        let inner = span::text(self.text, node.inside_quotes());
        JsonStr::from_inner(inner, string::has_backslash(inner.as_bytes()))
    }

    /// [`Classifier::scan_members`] in an object that may be large: its
    /// members counted, and over [`repeats::PAIRWISE_MEMBERS`] every name
    /// goes into the parser's hash table.
    #[cold]
    #[inline(never)]
    fn scan_large_members<const K: usize>(
        &mut self,
        object: usize,
        found: &mut [Option<Member>; K],
        wanted: [&str; K],
        slot_of: impl Fn(&[u8], Node) -> Option<usize>,
    ) -> Option<usize> {
        let count = self.members(object).count();
        if !repeats::needs_table(count) {
            return self.scan_small_members(object, found, wanted, slot_of);
        }
        let bytes = self.text.as_bytes();
        let mut repeated = None;
        let mut table = core::mem::take(self.names);
        table.start(count);
        for (index, node) in tape::members(self.tape, object) {
            // Every name is hashed, so it is looked at for a backslash once,
            // here, for the slot and the hash alike.
            let name = self.name_between_quotes(node);
            let slot = slot_of(bytes, node).or_else(|| name.escaped_slot(&wanted));
            if let Some(first @ None) = slot.and_then(|slot| found.get_mut(slot)) {
                *first = Some(Member::at(index));
            }
            if repeated.is_none() {
                repeated = table.see(name.hash(), index, |earlier| self.name(earlier).same_as(name));
            }
        }
        if repeated.is_none() {
            repeated = table.first_repeat(
                |a, b| self.name(a).same_as(self.name(b)),
                self.members(object).map(|m| (self.name(m.name()).hash(), m.name())),
                |a, b| self.name(a).cmp(self.name(b)),
            );
        }
        *self.names = table;
        repeated
    }
}

/// Of the members present, the one whose name comes second in the message.
fn second_by_position(members: [Option<Member>; 3]) -> Option<Member> {
    if members.iter().flatten().count() < 2 {
        return None; // the usual case: one kind of message
    }
    let mut members = members;
    members.sort_unstable_by_key(|m| m.map_or(usize::MAX, |m| m.name()));
    members.get(1).copied().flatten()
}
