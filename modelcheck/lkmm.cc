// The view-based LKMM machine and its race bits (modelcheck/lkmm.h).
#include "modelcheck/lkmm.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace idlespec::lkmm {

const char* access_kind_name(unsigned k) {
  switch (k) {
    case plain_store:
      return "plain store";
    case marked_store:
      return "marked store";
    case plain_load:
      return "plain load";
    default:
      return "marked load";
  }
}

// --- Chooser ------------------------------------------------------------------

unsigned Chooser::pick(unsigned n) {
  const unsigned c = at_ < script_.size() && script_[at_] < n ? script_[at_] : 0;
  ++at_;
  taken_.push_back(static_cast<uint8_t>(c));
  ranges_.push_back(static_cast<uint8_t>(n));
  return c;
}

bool Chooser::next() {
  for (size_t i = taken_.size(); i-- > 0;) {
    if (taken_[i] + 1u < ranges_[i]) {
      std::vector<uint8_t> s(taken_.begin(), taken_.begin() + static_cast<long>(i) + 1);
      ++s.back();
      reset(s);
      return true;
    }
  }
  return false;
}

void Chooser::reset(const std::vector<uint8_t>& script) {
  script_ = script;
  taken_.clear();
  ranges_.clear();
  at_ = 0;
}

// --- Machine ------------------------------------------------------------------

Machine::Machine(unsigned threads, unsigned locs, const std::array<uint32_t, kMaxLocs>& init)
    : threads_(threads), locs_(locs) {
  for (unsigned x = 0; x < locs_; ++x)
    hist_[x].push_back(Msg{init[x], false, View{}, ~uint64_t{0}});
}

void Machine::join(View& a, const View& b) const {
  for (unsigned x = 0; x < locs_; ++x) a[x] = std::max(a[x], b[x]);
}

void Machine::access(unsigned t, unsigned x, unsigned k) {
  const uint64_t known = th_[t].hb;
  for (unsigned u = 0; u < threads_; ++u) {
    if (u == t) continue;
    for (unsigned ku = 0; ku < 4; ++ku) {
      if (!is_store(k) && !is_store(ku)) continue;
      const uint64_t b = bit(x, u, ku);
      if (known & b) continue;
      Conflict c;
      c.loc = x;
      c.thread = t;
      c.kind = k;
      c.other = u;
      c.other_kind = ku;
      c.where = where_now_;
      c.other_where = where_[(x * threads_ + u) * 4 + ku];
      conflicts_.push_back(c);
    }
  }
  const uint64_t b = bit(x, t, k);
  for (unsigned v = 0; v < threads_; ++v) {
    ThreadViews& w = th_[v];
    if (v != t) w.hb &= ~b;
    w.hb_acq &= ~b;
    w.hb_w &= ~b;
    w.hb_rel &= ~b;
  }
  th_[t].hb |= b;
  for (unsigned y = 0; y < locs_; ++y)
    for (Msg& m : hist_[y]) m.hb &= ~b;
  where_[(x * threads_ + t) * 4 + k] = where_now_;
}

unsigned Machine::read_choices(unsigned t, unsigned x) const {
  if (broken_ & 4) return static_cast<unsigned>(hist_[x].size());
  return static_cast<unsigned>(hist_[x].size()) - th_[t].cur[x];
}

uint32_t Machine::load(unsigned t, unsigned x, unsigned choice, bool plain, bool acquire) {
  if ((rmw_only_ >> x) & 1) throw std::logic_error("a load of a location compacted as RMW-only");
  access(t, x, plain ? plain_load : marked_load);
  const unsigned n = static_cast<unsigned>(hist_[x].size());
  const unsigned back = n - 1 - std::min(choice, n - 1);
  const unsigned idx = broken_ & 4 ? back : std::max<unsigned>(th_[t].cur[x], back);
  const Msg& m = hist_[x][idx];
  ThreadViews& w = th_[t];
  w.cur[x] = static_cast<uint8_t>(std::max<unsigned>(w.cur[x], idx));
  join(w.acq, m.view);
  w.hb_acq |= m.hb;
  if (acquire) {
    join(w.cur, m.view);
    join(w.wv, m.view);
    w.hb |= m.hb;
    w.hb_w |= m.hb;
  }
  return m.val;
}

unsigned Machine::write_choices(unsigned t, unsigned x) const {
  const unsigned n = static_cast<unsigned>(hist_[x].size());
  unsigned k = 1;  // after the newest
  for (unsigned p = th_[t].cur[x] + 1u; p < n; ++p) k += hist_[x][p].rmw ? 0 : 1;
  return k;
}

void Machine::insert(unsigned x, unsigned pos, const Msg& m) {
  const auto shift = [&](View& v) {
    if (v[x] >= pos) ++v[x];
  };
  for (unsigned t = 0; t < threads_; ++t) {
    ThreadViews& w = th_[t];
    shift(w.cur);
    shift(w.acq);
    shift(w.wv);
    shift(w.wown);
    shift(w.relv);
  }
  shift(g_);
  for (unsigned y = 0; y < locs_; ++y)
    for (Msg& o : hist_[y]) shift(o.view);
  hist_[x].insert(hist_[x].begin() + pos, m);
}

void Machine::store(unsigned t, unsigned x, uint32_t v, unsigned choice, bool plain, bool release) {
  if ((rmw_only_ >> x) & 1) throw std::logic_error("a store to a location compacted as RMW-only");
  access(t, x, plain ? plain_store : marked_store);
  const unsigned n = static_cast<unsigned>(hist_[x].size());
  // choice 0: after the newest; choice k: before the k-th place from the end
  // that is not right before a read-modify-write.
  unsigned pos = n;
  for (unsigned p = n - 1, k = 0; k < choice && p > th_[t].cur[x]; --p) {
    if (hist_[x][p].rmw) continue;
    pos = p;
    ++k;
  }
  insert(x, pos, Msg{v, false, View{}, ~uint64_t{0}});
  ThreadViews& w = th_[t];
  w.cur[x] = static_cast<uint8_t>(pos);
  w.wown[x] = static_cast<uint8_t>(pos);
  Msg& m = hist_[x][pos];
  if (release && !(broken_ & 2)) {
    m.view = w.cur;
    join(m.view, w.wv);
    m.hb = w.hb;
    w.relv = m.view;
    w.hb_rel = w.hb;
  } else {
    m.view = w.wv;
    m.view[x] = static_cast<uint8_t>(pos);
    m.hb = w.hb_w;
  }
}

void Machine::rmw_at(unsigned t, unsigned x, unsigned n, uint32_t nv, bool writes, Order order) {
  access(t, x, marked_load);
  ThreadViews& w = th_[t];
  const Msg read = hist_[x][n];
  w.cur[x] = static_cast<uint8_t>(n);
  join(w.acq, read.view);
  w.hb_acq |= read.hb;
  if (order == Order::acquire || (order == Order::full && writes)) {
    join(w.cur, read.view);
    join(w.wv, read.view);
    w.hb |= read.hb;
    w.hb_w |= read.hb;
  }
  if (!writes) return;
  access(t, x, marked_store);
  Msg m{nv, true, View{}, 0};
  const unsigned pos = n + 1;
  hist_[x].push_back(m);  // n is the newest: no view points past it
  Msg& s = hist_[x][pos];
  w.cur[x] = static_cast<uint8_t>(pos);
  w.wown[x] = static_cast<uint8_t>(pos);
  if (order == Order::release || order == Order::full) {
    s.view = w.cur;
    join(s.view, w.wv);
    s.hb = w.hb;
    w.relv = s.view;
    w.hb_rel = w.hb;
  } else {
    s.view = w.wv;
    s.view[x] = static_cast<uint8_t>(pos);
    s.hb = w.hb_w;
  }
  // What the store it read carried goes on (a release followed by RMWs).
  join(s.view, read.view);
  s.hb |= read.hb;
}

void Machine::lock_acquired(unsigned t) {
  ThreadViews& w = th_[t];
  join(w.wv, w.relv);
  w.hb_w |= w.hb_rel;
}

void Machine::fence_mb(unsigned t) {
  ThreadViews& w = th_[t];
  join(w.cur, w.acq);
  w.hb |= w.hb_acq;
  if (!(broken_ & 1)) {
    join(w.cur, g_);
    join(g_, w.cur);
  }
  join(w.wv, w.cur);
  w.hb_w |= w.hb;
}

void Machine::fence_wmb(unsigned t) {
  ThreadViews& w = th_[t];
  join(w.wv, w.wown);
  for (unsigned x = 0; x < locs_; ++x) w.hb_w |= bit(x, t, plain_store) | bit(x, t, marked_store);
}

void Machine::fence_rmb(unsigned t) {
  ThreadViews& w = th_[t];
  join(w.cur, w.acq);
  w.hb |= w.hb_acq;
}

void Machine::sync_all() {
  View top{};
  for (unsigned x = 0; x < locs_; ++x) top[x] = static_cast<uint8_t>(hist_[x].size() - 1);
  for (unsigned t = 0; t < threads_; ++t) {
    ThreadViews& w = th_[t];
    w.cur = w.acq = w.wv = top;
    w.hb = w.hb_acq = w.hb_w = ~uint64_t{0};
  }
  g_ = top;
}

void Machine::normalize(unsigned history) {
  for (unsigned x = 0; x < locs_; ++x) {
    unsigned base = UINT8_MAX;
    for (unsigned t = 0; t < threads_; ++t) base = std::min<unsigned>(base, th_[t].cur[x]);
    const unsigned n = static_cast<unsigned>(hist_[x].size());
    if (history && n - base > history) {
      base = n - history;
      for (unsigned t = 0; t < threads_; ++t)
        th_[t].cur[x] = static_cast<uint8_t>(std::max<unsigned>(th_[t].cur[x], base));
    }
    if (base == 0) continue;
    const auto lower = [&](View& v) {
      v[x] = static_cast<uint8_t>(std::max<unsigned>(v[x], base) - base);
    };
    for (unsigned t = 0; t < threads_; ++t) {
      ThreadViews& w = th_[t];
      lower(w.cur);
      lower(w.acq);
      lower(w.wv);
      lower(w.wown);
      lower(w.relv);
    }
    lower(g_);
    hist_[x].erase(hist_[x].begin(), hist_[x].begin() + base);
    for (unsigned y = 0; y < locs_; ++y)
      for (Msg& m : hist_[y]) lower(m.view);
  }
  // Knowledge bits and views a thread cannot use any more are not state:
  // bits of accesses are kept, the stores' hb beyond the cells is cleared.
  const uint64_t cells =
      threads_ * locs_ * 4 >= 64 ? ~uint64_t{0} : (uint64_t{1} << (threads_ * locs_ * 4)) - 1;
  for (unsigned t = 0; t < threads_; ++t) {
    ThreadViews& w = th_[t];
    w.hb &= cells;
    w.hb_acq &= cells;
    w.hb_w &= cells;
    w.hb_rel &= cells;
  }
  for (unsigned y = 0; y < locs_; ++y)
    for (Msg& m : hist_[y]) m.hb &= cells;
}

void Machine::compact(uint32_t rmw_only) {
  rmw_only_ = rmw_only;
  for (unsigned x = 0; x < locs_; ++x) {
    if (!((rmw_only >> x) & 1)) continue;
    hist_[x].erase(hist_[x].begin(), hist_[x].end() - 1);
    const auto zero = [&](View& v) { v[x] = 0; };
    for (unsigned t = 0; t < threads_; ++t) {
      ThreadViews& w = th_[t];
      for (View* v : {&w.cur, &w.acq, &w.wv, &w.wown, &w.relv}) zero(*v);
    }
    zero(g_);
    for (unsigned y = 0; y < locs_; ++y)
      for (Msg& m : hist_[y]) zero(m.view);
    uint64_t cells = 0;
    for (unsigned u = 0; u < threads_; ++u) cells |= uint64_t{0xf} << ((x * threads_ + u) * 4);
    for (unsigned t = 0; t < threads_; ++t) {
      ThreadViews& w = th_[t];
      for (uint64_t* h : {&w.hb, &w.hb_acq, &w.hb_w, &w.hb_rel}) *h |= cells;
    }
    for (unsigned y = 0; y < locs_; ++y)
      for (Msg& m : hist_[y]) m.hb |= cells;
  }
  for (unsigned t = 0; t < threads_; ++t) {
    ThreadViews& w = th_[t];
    for (unsigned x = 0; x < locs_; ++x) {
      w.acq[x] = std::max(w.acq[x], w.cur[x]);
      w.wown[x] = std::max(w.wown[x], w.wv[x]);
      w.relv[x] = std::max(w.relv[x], w.wv[x]);
    }
    w.hb_acq &= ~w.hb;
    w.hb_rel &= ~w.hb_w;
  }
}

void Machine::thread_signature(unsigned t, std::string& out) const {
  const ThreadViews& w = th_[t];
  for (const View* v : {&w.cur, &w.acq, &w.wv, &w.wown, &w.relv})
    out.append(reinterpret_cast<const char*>(v->data()), locs_);
  for (const uint64_t h : {w.hb, w.hb_acq, w.hb_w, w.hb_rel}) {
    for (unsigned x = 0; x < locs_; ++x)
      out.push_back(static_cast<char>((h >> ((x * threads_ + t) * 4)) & 0xf));
    out.push_back(static_cast<char>(__builtin_popcountll(h)));
  }
}

// Every field of the state in one order, for serialize() and deserialize():
// io(pointer, bytes); `resize(x, n)` makes location x hold n stores (and
// returns the count to write).
template <class M, class IO, class Resize>
void Machine::visit(M& self, IO&& io, Resize&& resize) {
  for (unsigned x = 0; x < self.locs_; ++x) {
    uint8_t n = resize(x);
    io(&n, 1);
    if constexpr (!std::is_const_v<M>) self.hist_[x].resize(n);
    for (auto& m : self.hist_[x]) {
      io(&m.val, sizeof m.val);
      uint8_t r = m.rmw;
      io(&r, 1);
      if constexpr (!std::is_const_v<M>) m.rmw = r != 0;
      io(m.view.data(), self.locs_);
      io(&m.hb, sizeof m.hb);
    }
  }
  for (unsigned t = 0; t < self.threads_; ++t) {
    auto& w = self.th_[t];
    for (auto* v : {&w.cur, &w.acq, &w.wv, &w.wown, &w.relv}) io(v->data(), self.locs_);
    for (auto* h : {&w.hb, &w.hb_acq, &w.hb_w, &w.hb_rel}) io(h, sizeof *h);
  }
  io(self.g_.data(), self.locs_);
}

void Machine::serialize(std::string& out) const {
  visit(
      *this, [&](const void* p, size_t n) { out.append(static_cast<const char*>(p), n); },
      [&](unsigned x) { return static_cast<uint8_t>(hist_[x].size()); });
}

void Machine::deserialize(const std::string& in, size_t& at) {
  visit(
      *this,
      [&](void* p, size_t n) {
        std::memcpy(p, in.data() + at, n);
        at += n;
      },
      [&](unsigned) { return uint8_t{0}; });
  conflicts_.clear();
}

}  // namespace idlespec::lkmm
