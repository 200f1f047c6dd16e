/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TAGGER_NS3_RELEASE_COMPAT_H
#define TAGGER_NS3_RELEASE_COMPAT_H

/**
 * \file
 * \ingroup tagger
 * The ns-3 APIs that changed between the releases this module builds with
 * (3.35 with waf, 3.37 and 3.48 with CMake) and that have no form common to
 * all of them.  Everything else the module uses is written in the form that
 * exists in every one of those releases (see utils/check-ns3-compat.py,
 * which rejects the forms that do not):
 *
 * | What changed (release)                                   | Written everywhere as      |
 * |----------------------------------------------------------|----------------------------|
 * | EventId::IsRunning deprecated (3.42), then removed       | !IsExpired()               |
 * | TestSuite's UNIT... become Type::UNIT... (3.42)          | Type::UNIT (valid in both) |
 * | TestCase::QUICK becomes TestCase::Duration::QUICK (3.42) | AddTestCase's default      |
 * | InetSocketAddress::SetTos removed (3.42)                 | Socket::SetIpTos           |
 *
 * This header covers the two without such a form:
 *
 * - EnumValue became a class template in ns-3.41, and MakeEnumAccessor
 *   takes the enum type as a template argument there:
 *   TaggerEnumValue<T> and MakeTaggerEnumAccessor(&Class::m_member).
 * - Stock applications (OnOff, BulkSend, ...) take their IPv4 TOS from the
 *   remote InetSocketAddress up to ns-3.41, from their "Tos" attribute
 *   since ns-3.42: SetApplicationTos().
 *
 * It selects by TAGGER_NS3_VERSION, 100 * major + minor of the ns-3 release
 * (337 for ns-3.37), which every build of the module defines from the
 * version its build system knows (CMakeLists.txt: NS3_VER inside a tree, the
 * version find_package(ns3) found standalone; wscript: the tree's VERSION)
 * and hands on to every program that links the module.
 */

#ifndef TAGGER_NS3_VERSION
#error                                                                                             \
    "TAGGER_NS3_VERSION is not defined: build against the tagger module's targets (they define it)"
#endif

#include "ns3/address.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/uinteger.h"

#include <cstdint>

namespace ns3
{

#if TAGGER_NS3_VERSION >= 341
/// The attribute value of an enum attribute of type T (ns-3.41 and later: EnumValue<T>).
template <typename T>
using TaggerEnumValue = EnumValue<T>;
#else
/// The attribute value of an enum attribute of type T (before ns-3.41: EnumValue).
template <typename T>
using TaggerEnumValue = EnumValue;
#endif

/**
 * The accessor of an enum attribute stored in \p member.
 * \param member the data member, of an enum type
 * \return the accessor, as MakeEnumAccessor gives it in this release
 */
template <typename Class, typename T>
Ptr<const AttributeAccessor>
MakeTaggerEnumAccessor(T Class::*member)
{
#if TAGGER_NS3_VERSION >= 341
    return MakeEnumAccessor<T>(member);
#else
    return MakeEnumAccessor(member);
#endif
}

/**
 * Make the packets of a stock ns-3 application (OnOffHelper, BulkSendHelper,
 * ...) carry IPv4 TOS \p tos (DSCP = tos >> 2).
 * \param helper the application helper, already given \p remote as its "Remote"
 * \param remote the address the application sends to
 * \param tos the TOS byte
 */
template <typename ApplicationHelper>
void
SetApplicationTos(ApplicationHelper& helper, InetSocketAddress remote, uint8_t tos)
{
#if TAGGER_NS3_VERSION >= 342
    (void)remote;
    helper.SetAttribute("Tos", UintegerValue(tos));
#else
    remote.SetTos(tos);
    helper.SetAttribute("Remote", AddressValue(remote));
#endif
}

} // namespace ns3

#endif // TAGGER_NS3_RELEASE_COMPAT_H
