import type { Teacher } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import { teacher as makeTeacher } from '../../testing';
import {
  canSaveTeacher,
  emptyTeacherForm,
  formFromTeacher,
  joinFullName,
  parseExperienceYears,
  splitFullName,
  type TeacherForm,
  teacherRequest,
} from './teacher-form';

const teacher: Teacher = makeTeacher(4, {
  user_id: 14,
  full_name: 'Priya Sharma',
  first_name: 'Priya',
  last_name: 'Sharma',
  email: 'priya@example.org',
  qualification: 'M.Sc.',
  experience_years: 6,
  address: '12 Park Road\nPune',
  emergency_contact: '+919800000099',
});

describe('teacher names', () => {
  it('joins first and last name with one space', () => {
    expect(joinFullName('Priya', 'Sharma')).toBe('Priya Sharma');
    expect(joinFullName('  Priya ', ' Sharma  ')).toBe('Priya Sharma');
    expect(joinFullName('Priya', '')).toBe('Priya');
  });

  it('splits full_name on the first space', () => {
    expect(splitFullName('Priya Sharma')).toEqual({ first_name: 'Priya', last_name: 'Sharma' });
    expect(splitFullName('Anna Maria de Souza')).toEqual({ first_name: 'Anna', last_name: 'Maria de Souza' });
    expect(splitFullName('Madonna')).toEqual({ first_name: 'Madonna', last_name: '' });
  });

  it('fills the edit form from the record, keeping a two-word first name the record holds', () => {
    expect(formFromTeacher(teacher)).toMatchObject({ first_name: 'Priya', last_name: 'Sharma' });
    const twoWords = { ...teacher, full_name: 'Mary Ann Lee', first_name: 'Mary Ann', last_name: 'Lee' };
    expect(formFromTeacher(twoWords)).toMatchObject({ first_name: 'Mary Ann', last_name: 'Lee' });
    const noParts = { ...teacher, full_name: 'Mary Ann Lee', first_name: '', last_name: '' };
    expect(formFromTeacher(noParts)).toMatchObject({ first_name: 'Mary', last_name: 'Ann Lee' });
  });
});

describe('experience', () => {
  it('is parsed as an integer and is 0 when not numeric', () => {
    expect(parseExperienceYears('7')).toBe(7);
    expect(parseExperienceYears(' 12 ')).toBe(12);
    expect(parseExperienceYears('3.9')).toBe(3);
    expect(parseExperienceYears('5 years')).toBe(5);
    expect(parseExperienceYears('')).toBe(0);
    expect(parseExperienceYears('abc')).toBe(0);
    expect(parseExperienceYears(undefined)).toBe(0);
  });
});

describe('the teacher save rule', () => {
  const complete: TeacherForm = {
    ...emptyTeacherForm,
    first_name: 'Priya',
    last_name: 'Sharma',
    phone_number: '+919800000004',
    subjects: ['Mathematics'],
    classes_assigned: ['9'],
  };

  it('needs first name, last name, phone, a subject and a class; the rest is optional', () => {
    expect(canSaveTeacher(complete)).toBe(true);
    expect(canSaveTeacher(emptyTeacherForm)).toBe(false);
    expect(canSaveTeacher({ ...complete, first_name: ' ' })).toBe(false);
    expect(canSaveTeacher({ ...complete, last_name: '' })).toBe(false);
    expect(canSaveTeacher({ ...complete, phone_number: '' })).toBe(false);
    expect(canSaveTeacher({ ...complete, subjects: [] })).toBe(false);
    expect(canSaveTeacher({ ...complete, classes_assigned: [] })).toBe(false);
  });

  it('sends the fields plus full_name, with experience as a number and a blank email as none', () => {
    expect(teacherRequest({ ...complete, experience_years: 'lots', email: ' ', address: 'Line 1\nLine 2' })).toEqual({
      first_name: 'Priya',
      last_name: 'Sharma',
      full_name: 'Priya Sharma',
      email: null,
      phone_number: '+919800000004',
      subjects: ['Mathematics'],
      classes_assigned: ['9'],
      qualification: '',
      experience_years: 0,
      address: 'Line 1\nLine 2',
      emergency_contact: '',
    });
    expect(teacherRequest({ ...complete, experience_years: '4', email: 'p@example.org' })).toMatchObject({
      experience_years: 4,
      email: 'p@example.org',
    });
  });
});
