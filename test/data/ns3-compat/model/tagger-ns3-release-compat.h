// clang-format off
// Input of the ctest check-ns3-compat-finds: the compatibility header may name
// the APIs that differ between releases and test the release; nothing here is
// flagged.  Not compiled.
#if TAGGER_NS3_VERSION >= 341
template <typename T> using TaggerEnumValue = EnumValue<T>;
#else
template <typename T> using TaggerEnumValue = EnumValue;
#endif
    return MakeEnumAccessor<T>(member);
    remote.SetTos(tos);
    helper.SetAttribute("Tos", UintegerValue(tos));
