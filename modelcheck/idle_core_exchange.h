// The processes of a distributed search (Checker::run_distributed in
// modelcheck/idle_core_distributed.h) and the collective exchanges it needs.
// Every process ("rank") calls each collective in the same order. Two
// implementations: MPI's (modelcheck/mpi/idlespec_mc_mpi.cc, the idlespec-mc-mpi
// program under mpirun), and threads of one process that stand for ranks
// (ThreadExchange, for the tests of the search itself).
#pragma once

#include <barrier>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace idlespec::idle_core::mc {

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual unsigned rank() const = 0;
  virtual unsigned ranks() const = 0;
  // out[r]: the bytes for rank r (out.size() == ranks()); in[r]: the bytes
  // rank r sent to this one. out is left as it was.
  virtual void all_to_all(const std::vector<std::vector<uint8_t>>& out,
                          std::vector<std::vector<uint8_t>>& in) = 0;
  // The sum and the maximum of v over the ranks.
  virtual uint64_t sum(uint64_t v) = 0;
  virtual uint64_t max(uint64_t v) = 0;
};

// N ranks as N threads of one process: construct one ThreadExchange::Group
// of N, and give rank r's thread group.member(r).
class ThreadExchange final : public Exchange {
 public:
  class Group {
   public:
    explicit Group(unsigned n) : n_(n), barrier_(n), boxes_(n * n), values_(n) {}
    ThreadExchange member(unsigned r) { return ThreadExchange(*this, r); }

   private:
    friend class ThreadExchange;
    unsigned n_;
    std::barrier<> barrier_;
    std::vector<std::vector<uint8_t>> boxes_;  // [from * n + to]
    std::vector<uint64_t> values_;
  };

  unsigned rank() const override { return r_; }
  unsigned ranks() const override { return g_->n_; }
  void all_to_all(const std::vector<std::vector<uint8_t>>& out,
                  std::vector<std::vector<uint8_t>>& in) override {
    const unsigned n = g_->n_;
    for (unsigned to = 0; to < n; ++to) g_->boxes_[r_ * n + to] = out[to];
    g_->barrier_.arrive_and_wait();
    in.assign(n, {});
    for (unsigned from = 0; from < n; ++from) in[from] = g_->boxes_[from * n + r_];
    g_->barrier_.arrive_and_wait();
  }
  uint64_t sum(uint64_t v) override { return reduce(v, false); }
  uint64_t max(uint64_t v) override { return reduce(v, true); }

 private:
  ThreadExchange(Group& g, unsigned r) : g_(&g), r_(r) {}
  uint64_t reduce(uint64_t v, bool take_max) {
    g_->values_[r_] = v;
    g_->barrier_.arrive_and_wait();
    uint64_t out = 0;
    for (uint64_t x : g_->values_) out = take_max ? (x > out ? x : out) : out + x;
    g_->barrier_.arrive_and_wait();
    return out;
  }
  Group* g_;
  unsigned r_;
};

// Runs run(exchange) on n threads standing for n ranks; every rank's result.
template <class Result, class Run>
std::vector<Result> on_thread_ranks(unsigned n, Run run) {
  ThreadExchange::Group group(n);
  std::vector<Result> results(n);
  std::vector<std::thread> threads;
  for (unsigned r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      ThreadExchange x = group.member(r);
      results[r] = run(x);
    });
  }
  for (std::thread& t : threads) t.join();
  return results;
}

// The records ranks send each other: raw values, read back with a check
// that the record is whole.
namespace wire {
template <class T>
void put_raw(std::vector<uint8_t>& b, const T& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  b.insert(b.end(), p, p + sizeof(T));
}
template <class T>
T get_raw(const std::vector<uint8_t>& b, size_t& at) {
  T v{};
  if (at + sizeof(T) > b.size()) throw std::length_error("a short record from another rank");
  std::memcpy(&v, b.data() + at, sizeof(T));
  at += sizeof(T);
  return v;
}
}  // namespace wire

}  // namespace idlespec::idle_core::mc
