// A non-owning reference to a callable (C++26's std::function_ref): one indirect call, and no
// copy of the callable or allocation, which a std::function may make. The callable must outlive
// the reference (pass a lambda straight to a parameter of this type).
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace remora {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
           std::is_invocable_r_v<R, F&, Args...>) FunctionRef(F&& f)  // NOLINT: implicit by design
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}
  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace remora
