# SPDX-License-Identifier: GPL-2.0-only
#
# tagger_drop_missing_ns3_include_dirs(): after find_package(ns3), drop the
# include directories of the imported ns3:: targets that do not exist here.
# Debian's ns3Targets.cmake gives every ns-3 target /usr/include/libxml2 and
# /usr/include/python3.11, the directories of the machine that built the
# package; CMake refuses an imported target whose include directory is
# missing, and neither is needed to build against ns-3's headers.  Used by the
# module's standalone build (CMakeLists.txt) and by the installed package
# (taggerConfig.cmake), so a user's project finds ns-3 the same way.
function(tagger_drop_missing_ns3_include_dirs)
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.21)
    get_property(imported DIRECTORY PROPERTY IMPORTED_TARGETS)
  else()
    set(imported ns3::libcore)
  endif()
  foreach(target ${imported})
    if(target MATCHES "^ns3::")
      get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
      if(dirs)
        set(kept)
        foreach(dir ${dirs})
          if(EXISTS "${dir}")
            list(APPEND kept "${dir}")
          endif()
        endforeach()
        set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${kept}")
      endif()
    endif()
  endforeach()
endfunction()
